import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { joinBytes } from '../../../src/speech/audio/bytes.ts';
import { compressedFormats } from '../../../src/speech/audio/compressed-formats.ts';
import { EncodingThreads } from '../../../src/speech/audio/encoding-threads.ts';
import type { EngineInput } from '../../../src/speech/engines/engine.ts';
import { EnginePool } from '../../../src/speech/pool/engine-pool.ts';
import type { OutputSpec } from '../../../src/speech/pool/protocol.ts';
import { POOL_WORKER_NAME } from '../../../src/speech/pool/workers.ts';
import { findVoice, type Voice } from '../../../src/speech/voices/voices.ts';
import { collect } from '../../helpers/streams.ts';
import { killThreads } from '../../helpers/thread-faults.ts';
import { startTestPool } from '../../helpers/tts-fixture.ts';

function voice(language: string, speakerId: number): Voice {
  const found = findVoice(language, speakerId);
  if (!found) throw new Error(`no voice ${language}/${speakerId}`);
  return found;
}

// espeak-ng voices (Flite's engine tests are in engines/flite.test.ts): these tests stop and
// resume their clauses between engine chunks. `en` reads the English texts, with an espeak-ng
// English voice of the pool's own.
const en = { ...voice('fr', 0), engineVoice: { ...voice('fr', 0).engineVoice, language: 'en-us' } };
const fr = voice('fr', 1);
const rw = voice('rw', 2);
const native: OutputSpec = { sampleRate: 22050, encoding: 'pcm_s16le' };
const mulaw: OutputSpec = { sampleRate: 8000, encoding: 'mulaw' };
const longText =
  'This sentence is long on purpose, so that it takes the engine many chunks to speak it, and it goes on, ' +
  'clause after clause, about the weather in Kigali, the hills, the lakes, and the busy markets of the city.';
/** About a minute of speech: far longer to speak than a short clause. */
const veryLongText = longText.repeat(6);

const text = (words: string): EngineInput => ({ kind: 'text', text: words });

describe('EnginePool', () => {
  let pool: EnginePool;

  before(async () => {
    pool = await EnginePool.start({
      size: 2,
      warmUp: { samples: [{ input: text('Hello.'), voice: en.engineVoice }], outputs: [native, mulaw] },
    });
  });
  after(() => pool.close());

  it('is ready once every worker has warmed up', () => {
    assert.equal(pool.ready, true);
    assert.equal(pool.size, 2);
  });

  it('gives each of many concurrent requests exactly the audio it gives alone', async () => {
    const clause = (i: number) => {
      if (i % 3 === 0)
        return {
          input: text(`Appointment number ${i} is confirmed for ${i + 1} o'clock.`),
          voice: en.engineVoice,
        };
      if (i % 3 === 1)
        return { input: text(`Le rendez-vous numéro ${i} est confirmé.`), voice: fr.engineVoice };
      // Kinyarwanda reaches the engine as phonemes, the form the rw front-end produces.
      return {
        input: {
          kind: 'phonemes' as const,
          phonemes: `[[mu'*aho 'neza]], [[ama'ku*u ${'ja'.repeat(i % 4)}]]?`,
        },
        voice: rw.engineVoice,
      };
    };
    const jobs = Array.from({ length: 18 }, (_, i) => ({ ...clause(i), output: i % 4 ? native : mulaw }));
    const alone: Buffer[] = [];
    for (const job of jobs) alone.push(await collect(pool.synthesize(job)));
    const together = await Promise.all(jobs.map((job) => collect(pool.synthesize(job))));
    for (const [i, audio] of together.entries()) {
      assert.ok(audio.byteLength > 4000, `job ${i} produced audio`);
      assert.ok(audio.equals(alone[i] ?? Buffer.alloc(0)), `job ${i} is identical to its solo rendering`);
    }
    assert.ok(!together[0]?.equals(together[2] ?? Buffer.alloc(0)), 'different texts give different audio');
  });

  it('stops a cancelled job early and frees its worker for the next one', async () => {
    const full = await collect(
      pool.synthesize({ input: text(longText), voice: en.engineVoice, output: native }),
    );
    const controller = new AbortController();
    const stream = pool.synthesize({
      input: text(longText),
      voice: en.engineVoice,
      output: native,
      signal: controller.signal,
    });
    let received = 0;
    await assert.rejects(async () => {
      for await (const bytes of stream) {
        received += bytes.byteLength;
        controller.abort(new Error('caller hung up'));
      }
    }, /caller hung up/);
    assert.ok(received < full.byteLength / 4, `cancelled after ${received} of ${full.byteLength} bytes`);
    // Both workers are free again: two more jobs complete.
    const [a, b] = await Promise.all([
      collect(pool.synthesize({ input: text('Next caller.'), voice: en.engineVoice, output: mulaw })),
      collect(pool.synthesize({ input: text('Appel suivant.'), voice: fr.engineVoice, output: mulaw })),
    ]);
    assert.ok(a.byteLength > 0 && b.byteLength > 0);
    assert.equal(pool.queued, 0);
  });

  it('cancels a job that is still queued without running it', async () => {
    const busy = [1, 2].map(() =>
      collect(pool.synthesize({ input: text(longText), voice: en.engineVoice, output: native })),
    );
    const controller = new AbortController();
    const queued = collect(
      pool.synthesize({
        input: text('Never spoken.'),
        voice: en.engineVoice,
        output: native,
        signal: controller.signal,
      }),
    );
    assert.equal(pool.queued, 1);
    controller.abort(new Error('gone'));
    await assert.rejects(queued, /gone/);
    assert.equal(pool.queued, 0);
    await Promise.all(busy);
  });

  it('runs the waiting job due soonest first', async () => {
    // One worker frees up soon and takes the queue in order; the other stays busy until it is done.
    const busy = ['Hi.', veryLongText].map((input) =>
      collect(pool.synthesize({ input: text(input), voice: en.engineVoice, output: native })),
    );
    const finished: string[] = [];
    const track = (name: string, deadline: number) =>
      collect(
        pool.synthesize({ input: text(`${name}.`), voice: en.engineVoice, output: native, deadline }),
      ).then(() => {
        finished.push(name);
      });
    const now = performance.now();
    const later = [track('later one', now + 2000), track('later two', now + 1000)];
    const first = track('first clause', now);
    await Promise.all([...busy, ...later, first]);
    assert.deepEqual(finished, ['first clause', 'later two', 'later one']);
  });

  it('starts a queued job as soon as a running one is cancelled', async () => {
    // Both workers take a long job that may not be interrupted (no deadline); a third waits.
    const controller = new AbortController();
    const cancelled = collect(
      pool.synthesize({
        input: text(veryLongText),
        voice: en.engineVoice,
        output: mulaw,
        signal: controller.signal,
      }),
    ).catch(() => 'cancelled');
    const other = collect(
      pool.synthesize({ input: text(veryLongText), voice: fr.engineVoice, output: mulaw }),
    ).then(() => 'long job');
    const waiting = collect(
      pool.synthesize({ input: text('Next caller.'), voice: en.engineVoice, output: mulaw }),
    ).then(() => 'queued job');
    assert.equal(pool.queued, 1);
    controller.abort(new Error('caller hung up'));
    // The queued job needs a few ms once it has a worker; the other long job needs far longer.
    assert.equal(await Promise.race([waiting, other]), 'queued job');
    assert.equal(await cancelled, 'cancelled');
    await other;
  });

  it('lets a job due sooner interrupt a running one that has audio to spare, without changing its audio', async () => {
    const now = performance.now();
    const alone = await collect(
      pool.synthesize({ input: text(veryLongText), voice: en.engineVoice, output: mulaw }),
    );
    // Both workers take a long clause with a deadline; an urgent job then waits for one of them.
    const long = [now, now + 1].map((deadline) =>
      collect(
        pool.synthesize({ input: text(veryLongText), voice: en.engineVoice, output: mulaw, deadline }),
      ).then((audio) => ({ name: 'long', audio })),
    );
    const urgent = collect(
      pool.synthesize({
        input: text('Hello, caller.'),
        voice: en.engineVoice,
        output: mulaw,
        deadline: now - 1,
      }),
    ).then((audio) => ({ name: 'urgent', audio }));
    const done = await Promise.race([urgent, ...long]);
    assert.equal(done.name, 'urgent', 'the urgent job finished before either long one');
    for (const { audio } of await Promise.all(long)) {
      assert.ok(audio.equals(alone), 'the interrupted job resumed exactly where it stopped');
    }
    assert.equal(pool.queued, 0);
  });

  it('fails a job the engine rejects and keeps serving others', async () => {
    const broken = { ...en.engineVoice, language: 'xx-nowhere' };
    await assert.rejects(
      collect(pool.synthesize({ input: text('Hello.'), voice: broken, output: native })),
      /rejected voice/,
    );
    const ok = await collect(
      pool.synthesize({ input: text('Hello.'), voice: en.engineVoice, output: native }),
    );
    assert.ok(ok.byteLength > 0);
    assert.equal(pool.ready, true);
  });
});

describe('EnginePool when a worker dies', () => {
  let pool: EnginePool;
  before(async () => {
    pool = await startTestPool(2);
  });
  after(() => pool.close());

  it('stays ready and serves with the other worker while the dead one’s replacement warms up', async () => {
    const en = findVoice('en', 0);
    assert.ok(en);
    let unready = 0;
    const watching = setInterval(() => {
      if (!pool.ready) unready++;
    }, 1);
    assert.equal(await killThreads(POOL_WORKER_NAME, 1), 1);
    // The job a worker holds when it dies fails with it; the thread is gone a moment after the kill.
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const started = performance.now();
      while (performance.now() - started < 1500) {
        const audio = await collect(
          pool.synthesize({
            input: { kind: 'text', text: 'Hello again.' },
            voice: en.engineVoice,
            output: { sampleRate: 16_000, encoding: 'pcm_s16le' },
          }),
        );
        assert.ok(audio.byteLength > 0);
      }
    } finally {
      clearInterval(watching);
    }
    assert.equal(unready, 0, 'never not ready');
    assert.equal(pool.size, 2, 'the dead worker was replaced');
  });
});

describe('EnginePool encoders', () => {
  it('hands out the encoders it is given, and leaves them to their owner when it closes', async () => {
    const encoders = new EncodingThreads(1);
    const pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] }, encoders });
    try {
      const pcm = new Uint8Array(compressedFormats.mp3.sampleRate * 2).fill(1);
      const fromPool = pool.openEncoder(compressedFormats.mp3);
      const mp3 = joinBytes([await fromPool.encode(pcm), await fromPool.end()]);
      assert.ok(mp3.byteLength > 0);
      await pool.close();
      assert.throws(() => pool.openEncoder(compressedFormats.mp3), /engine pool closed/);
      const after = encoders.open(compressedFormats.mp3);
      assert.deepEqual(
        joinBytes([await after.encode(pcm), await after.end()]),
        mp3,
        'still open, the same bytes',
      );
    } finally {
      await pool.close();
      await encoders.close();
    }
  });

  it('refuses a compressed format when it was given no encoders', async () => {
    const pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
    try {
      assert.throws(() => pool.openEncoder(compressedFormats.mp3), /without encoders/);
    } finally {
      await pool.close();
    }
  });
});

describe('EnginePool interruptions', () => {
  // A pool of its own, with no measured costs yet: a character is estimated at the initial cost.
  let pool: EnginePool;
  before(async () => {
    pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
  });
  after(() => pool.close());

  it('keeps a running job on its worker when the waiting work would outlast the audio it has given', async () => {
    const now = performance.now();
    const running = collect(
      pool.synthesize({ input: text(veryLongText), voice: en.engineVoice, output: mulaw, deadline: now }),
    ).then(() => 'running job');
    // Due now, but more work than one worker can do before the running job's listener has
    // played its first second: interrupting for it would leave that listener waiting mid-sentence.
    const heavy = collect(
      pool.synthesize({
        input: text(longText.repeat(30)),
        voice: en.engineVoice,
        output: mulaw,
        deadline: now - 1,
      }),
    ).then(() => 'waiting job');
    assert.equal(await Promise.race([running, heavy]), 'running job');
    await heavy;
  });
});

describe('EnginePool priority', () => {
  /** Each thread of this process's nice value (`/proc/<pid>/task/<tid>/stat`, field 19), by thread id. */
  function niceByThread(): Map<number, number> {
    const nice = new Map<number, number>();
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The fields after the command's closing parenthesis: state is field 3, nice field 19.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nice.set(Number(tid), Number(fields[16]));
    }
    return nice;
  }

  it('runs its workers below the request thread, and only them', {
    skip: process.platform === 'linux' ? false : 'thread priorities are read from Linux /proc',
  }, async () => {
    const before = niceByThread();
    const base = before.get(process.pid) as number;
    const pool = await EnginePool.start({ size: 2, warmUp: { samples: [], outputs: [] }, workerNiceness: 5 });
    try {
      const after = niceByThread();
      const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === Math.min(19, base + 5));
      assert.equal(lowered.length, 2, 'one lowered thread per worker');
      assert.equal(after.get(process.pid), base, 'the request thread keeps its priority');
      for (const [tid, nice] of before)
        if (after.has(tid)) assert.equal(after.get(tid), nice, `thread ${tid}`);
    } finally {
      await pool.close();
    }
  });
});

describe('EnginePool pacing', () => {
  // What needs no engine, and a new call's first audio, go ahead of the clauses listeners need
  // only later. English is Flite's here: its first audio takes several times espeak-ng's.
  const grace = voice('en', 0);
  let pool: EnginePool;
  before(async () => {
    pool = await EnginePool.start({
      size: 2,
      warmUp: { samples: [{ input: text('Hello.'), voice: grace.engineVoice }], outputs: [mulaw] },
    });
  });
  after(() => pool.close());

  /** The order in which streams give their first bytes, by name, and every chunk of each. */
  function firstBytesOrder(streams: Record<string, AsyncIterable<Uint8Array>>) {
    const order: string[] = [];
    const chunks = Object.entries(streams).map(async ([name, stream]) => {
      const parts: Uint8Array[] = [];
      for await (const bytes of stream) {
        if (parts.length === 0) order.push(name);
        parts.push(bytes);
      }
      return parts;
    });
    return Promise.all(chunks).then((parts) => ({ order, parts }));
  }

  it('starts no later clause while a request is being accepted, so a first clause submitted after it goes first', async () => {
    // One worker: without the hold it would take the later clause, the first waiting for it to
    // yield at a second of audio.
    const single = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
    try {
      const now = performance.now();
      single.requestArrived(now);
      const { order } = await firstBytesOrder({
        later: single.synthesize({
          input: text(longText),
          voice: fr.engineVoice,
          output: mulaw,
          deadline: now + 5000,
        }),
        first: single.synthesize({
          input: text('Bonjour.'),
          voice: fr.engineVoice,
          output: mulaw,
          deadline: now,
        }),
      });
      assert.deepEqual(order, ['first', 'later']);
    } finally {
      await single.close();
    }
  });

  it('starts no later clause while a first clause runs to its first audio', async () => {
    const now = performance.now();
    const { order } = await firstBytesOrder({
      first: pool.synthesize({
        input: text('Thank you for calling the dental clinic in the centre of Kigali today'),
        voice: grace.engineVoice,
        output: mulaw,
        deadline: now,
      }),
      // A worker is free for it, and espeak-ng's first audio comes far sooner than Flite's.
      later: pool.synthesize({
        input: text('Merci.'),
        voice: fr.engineVoice,
        output: mulaw,
        deadline: now + 5000,
      }),
    });
    assert.deepEqual(order, ['first', 'later']);
  });

  it('holds a later clause no closer to its listener’s need than half a second, however many requests arrive', async () => {
    const arriving = setInterval(() => pool.requestArrived(), 2);
    try {
      const now = performance.now();
      const later = collect(
        pool.synthesize({ input: text('Merci.'), voice: fr.engineVoice, output: mulaw, deadline: now + 800 }),
      ).then(() => 'spoken');
      const timeout = new Promise((resolve) => setTimeout(resolve, 5000, 'still held'));
      assert.equal(await Promise.race([later, timeout]), 'spoken');
    } finally {
      clearInterval(arriving);
    }
  });

  it('sends a clause started ahead of its need in fewer, larger messages, with the same audio', async () => {
    const spoken = (deadline: number) =>
      firstBytesOrder({
        clause: pool.synthesize({ input: text(longText), voice: fr.engineVoice, output: mulaw, deadline }),
      }).then(({ parts }) => parts[0] ?? []);
    const due = await spoken(performance.now());
    const nearlyDue = await spoken(performance.now() + 20);
    const ahead = await spoken(performance.now() + 10_000);
    const seconds = (bytes: number) => bytes / 8000;
    assert.deepEqual(Buffer.concat(ahead), Buffer.concat(due));
    assert.ok(
      seconds((due[0] as Uint8Array).byteLength) <= 0.2,
      'a waiting listener gets the first chunk at once',
    );
    assert.ok(
      seconds((nearlyDue[0] as Uint8Array).byteLength) <= 0.2,
      'so does one with a few milliseconds of audio in hand',
    );
    assert.deepEqual(Buffer.concat(nearlyDue), Buffer.concat(due));
    assert.ok(
      seconds((ahead[0] as Uint8Array).byteLength) >= 1.9,
      'a listener with audio in hand gets it in two-second batches',
    );
    const whole = seconds(Buffer.concat(due).byteLength);
    assert.ok(whole > 6, `a long clause (${whole} s)`);
    assert.ok(ahead.length <= Math.ceil(whole / 2), `${ahead.length} messages for ${whole} s`);
    assert.ok(due.length > ahead.length);
  });
});

describe('EnginePool.starting', () => {
  it('takes jobs once one worker is warm, during the later warm-up rounds, with the bytes of a warm pool', async () => {
    const warmUp = {
      samples: [text('Hello there.'), text('Good morning.'), text('Thank you.')].map((input) => ({
        input,
        voice: en.engineVoice,
      })),
      outputs: [native, mulaw],
    };
    const job = { input: text('Your appointment is at nine.'), voice: en.engineVoice, output: mulaw };
    const warm = await EnginePool.start({ size: 1, warmUp });
    const expected = await collect(warm.synthesize(job)).finally(() => warm.close());

    const starting = EnginePool.starting({ size: 2, warmUp });
    try {
      assert.equal(starting.pool.ready, false, 'not ready before a worker has warmed');
      await starting.firstWarm;
      assert.equal(starting.pool.ready, true);
      // Sent while the warm workers speak their later rounds between jobs, and the other one warms.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => collect(starting.pool.synthesize(job))),
      );
      for (const audio of answers) assert.ok(audio.equals(expected), 'the same bytes as from a warm pool');
      await starting.allWarm;
      assert.equal(starting.pool.size, 2);
    } finally {
      await starting.pool.close();
    }
  });
});
