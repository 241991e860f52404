import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type StreamFormat, streamFormatNames, streamFormats } from '../../src/speech/audio/formats.ts';
import { decodeAlaw, decodeMulaw } from '../../src/speech/audio/g711.ts';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import { type CachedClause, SharedClause } from '../../src/speech/cache/cached-clause-stream.ts';
import {
  type AccountClauses,
  ClauseCache,
  type ClauseSpec,
  clauseKey,
} from '../../src/speech/cache/clause-cache.ts';
import { VoiceStore } from '../../src/speech/engines/neural/voice-store.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import {
  type AudioTarget,
  plainSpeech,
  type SynthesisEvent,
  synthesize,
} from '../../src/speech/synthesize.ts';
import { splitClauses } from '../../src/speech/text/clauses.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import { assignedVoice } from '../../src/speech/voices/assigned-voices.ts';
import { findVoice, type Voice } from '../../src/speech/voices/voices.ts';
import { rms } from '../helpers/signals.ts';
import { collect } from '../helpers/streams.ts';
import { recordJobs, startTestPool } from '../helpers/tts-fixture.ts';
import { writeVoicePack } from '../helpers/voice-packs.ts';

// The clause cache in the pipeline, with the real pool and engines: a cached clause is the same
// audio, words and summary as a fresh one in every engine and format, another account's entries
// are never used, the bound holds under a flood, and eviction never cuts a stream short.

const GREETING = 'Thank you for calling Kigali Dental. How can I help you today?';

function voice(language: string, speakerId: number): Voice {
  const found = findVoice(language, speakerId);
  assert.ok(found, `voice ${language}/${speakerId}`);
  return found;
}

/** Everything a pipeline run yields, in order. */
async function run(
  pool: EnginePool,
  text: string,
  speaker: Voice,
  target: AudioTarget,
  clauses?: AccountClauses,
): Promise<SynthesisEvent[]> {
  const events: SynthesisEvent[] = [];
  const request = { ...plainSpeech(text, speaker.language), voice: speaker, target, words: true, clauses };
  for await (const event of synthesize(pool, request)) events.push(event);
  return events;
}

function samplesOf(audio: Uint8Array, target: AudioTarget): Int16Array {
  if (target.kind === 'stream' && target.format.encoding === 'mulaw') return decodeMulaw(audio);
  if (target.kind === 'stream' && target.format.encoding === 'alaw') return decodeAlaw(audio);
  return littleEndianBytesToInt16(audio);
}

const audioOf = (events: readonly SynthesisEvent[]) =>
  Buffer.concat(events.flatMap((e) => (e.type === 'audio' ? [e.bytes] : [])));

describe('the clause cache in the pipeline', () => {
  let pool: EnginePool;
  let dir: string;
  let neural: Voice;
  let jobs: ReturnType<typeof recordJobs>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ijwi-clause-cache-'));
    const voicesDir = join(dir, 'voices');
    const installed = await new VoiceStore(voicesDir).install(
      writeVoicePack(join(dir, 'pack'), { kind: 'mms', sampleRate: 16_000 }),
    );
    assert.ok(installed.ok);
    const assigned = await assignedVoice(voicesDir, {
      language: 'rw',
      speakerId: 1,
      voice: installed.voice.id,
      speaker: 0,
    });
    assert.ok(!Array.isArray(assigned), String(assigned));
    neural = assigned;
    pool = await startTestPool();
    jobs = recordJobs(pool);
  });
  after(async () => {
    await pool?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const engines = () =>
    [
      {
        engine: 'espeak-ng',
        voice: voice('rw', 0),
        text: 'Muraho neza, murakaza neza kuri Ijwi. Nabafasha iki?',
      },
      { engine: 'flite', voice: voice('en', 0), text: GREETING },
      { engine: 'neural (tiny test model)', voice: neural, text: 'Muraho neza. Murakaza neza.' },
    ] as const;
  const targets: readonly { name: string; target: AudioTarget }[] = [
    { name: 'native WAV rate', target: { kind: 'native' } },
    ...streamFormatNames.map((name) => ({
      name,
      target: { kind: 'stream', format: streamFormats[name] } as const,
    })),
  ];

  it('gives, in every engine and format, the bytes, parts, words and summary of a fresh synthesis, with no engine work', async () => {
    for (const { engine, voice: speaker, text } of engines()) {
      for (const { name, target } of targets) {
        const fresh = await run(pool, text, speaker, target);
        const clauses = new ClauseCache(8 * 1024 * 1024).forAccount('acct_a');
        const miss = await run(pool, text, speaker, target, clauses);
        const before = jobs.length;
        const hit = await run(pool, text, speaker, target, clauses);
        const what = `${engine}, ${name}`;
        assert.equal(jobs.length, before, `${what}: a cached clause asks nothing of the pool`);
        assert.ok(rms(samplesOf(audioOf(fresh), target)) > 100, `${what}: speech, not silence`);
        assert.deepEqual(audioOf(miss), audioOf(fresh), `${what}: the first synthesis is unchanged`);
        assert.deepEqual(audioOf(hit), audioOf(fresh), `${what}: cached audio is byte for byte fresh audio`);
        const sizes = (events: readonly SynthesisEvent[]) =>
          events.flatMap((e) => (e.type === 'audio' ? [e.bytes.byteLength] : []));
        assert.deepEqual(sizes(hit), sizes(miss), `${what}: in parts of the sizes the pool gave`);
        // Word timings and the summary are the same: they are made from the same bytes and events.
        const rest = (events: readonly SynthesisEvent[]) => events.filter((e) => e.type !== 'audio');
        assert.deepEqual(rest(hit), rest(fresh), `${what}: words and summary`);
        assert.ok(
          rest(fresh).some((e) => e.type === 'words'),
          `${what}: the request asked for words and got them`,
        );
      }
    }
  });

  it('serves one account from its own entries only: the same text for another account goes to the engine', async () => {
    const cache = new ClauseCache(8 * 1024 * 1024);
    const target: AudioTarget = { kind: 'stream', format: streamFormats.mulaw_8k };
    const english = voice('en', 1);
    await run(pool, GREETING, english, target, cache.forAccount('acct_a'));
    const before = jobs.length;
    await run(pool, GREETING, english, target, cache.forAccount('acct_a'));
    assert.equal(jobs.length, before, 'the account that said it is served from the cache');
    const hits = cache.stats().hits;
    await run(pool, GREETING, english, target, cache.forAccount('acct_b'));
    assert.equal(
      jobs.length,
      before + 2,
      "another account's identical clauses are each spoken by the engine",
    );
    assert.equal(cache.stats().hits, hits, 'and none of them is a hit');
    const again = jobs.length;
    await run(pool, GREETING, english, target, cache.forAccount('acct_b'));
    assert.equal(jobs.length, again, 'that account then has entries of its own');
  });

  it('keeps its bytes under the bound under a flood of distinct clauses', async () => {
    const cache = new ClauseCache(1024 * 1024);
    const clauses = cache.forAccount('acct_flood');
    const target: AudioTarget = { kind: 'stream', format: streamFormats.mulaw_8k };
    const speaker = voice('fr', 0);
    for (let i = 0; i < 60; i++) {
      await run(
        pool,
        `Le dossier numéro ${i * 7919} est prêt, merci de patienter.`,
        speaker,
        target,
        clauses,
      );
      assert.ok(
        cache.stats().bytes <= cache.maxBytes,
        `after ${i + 1} clauses: ${cache.stats().bytes} bytes`,
      );
    }
    const stats = cache.stats();
    assert.ok(stats.evictions > 0, 'the flood was more than the bound holds');
    assert.equal(
      stats.entries + stats.evictions,
      stats.misses,
      'every clause was kept, then the oldest dropped',
    );
    assert.ok(stats.bytes > cache.maxBytes / 2, 'the bound is used, not left empty');
  });

  it('finishes a stream whose cached clauses are evicted while it plays', async () => {
    const cache = new ClauseCache(1024 * 1024);
    const clauses = cache.forAccount('acct_evict');
    const format: StreamFormat = streamFormats.mulaw_8k;
    const target: AudioTarget = { kind: 'stream', format };
    const speaker = voice('rw', 2);
    const text = 'Murakoze guhamagara. Turabafasha vuba. Mwihangane gato.';
    const fresh = await run(pool, text, speaker, target, clauses);
    const { hits } = cache.stats();
    let fromCache = 0;
    const events: SynthesisEvent[] = [];
    for await (const event of synthesize(pool, {
      ...plainSpeech(text, speaker.language),
      voice: speaker,
      target,
      words: true,
      clauses,
    })) {
      events.push(event);
      if (fromCache === 0 && event.type === 'audio') {
        // The clause playing and the one looked up ahead came from the cache.
        fromCache = cache.stats().hits - hits;
        // Other phrases of the same account, each said twice (so used again, as these were),
        // push every entry of this text out of the cache.
        for (let i = 0; i < 40; i++)
          for (let twice = 0; twice < 2; twice++)
            await run(pool, `Dosiye ${i * 104_729} iriteguye.`, speaker, target, clauses);
      }
    }
    assert.equal(fromCache, 2);
    assert.deepEqual(audioOf(events), audioOf(fresh), 'the stream is whole and unchanged');
    const samples = decodeMulaw(audioOf(events));
    assert.ok(samples.length / format.sampleRate > 1.5 && rms(samples) > 500, 'speech, not silence');
    // Said again, the two clauses it played from the cache go to the engine: they had been evicted
    // (the third, evicted before the stream reached it, was spoken and kept again).
    const before = jobs.length;
    await run(pool, text, speaker, target, clauses);
    assert.equal(jobs.length - before, 2);
  });

  it('keeps whole a clause the pool interrupted for a more urgent one and resumed', async () => {
    const speaker = voice('fr', 0);
    const long = `${'Nous parlons longtemps de la pluie, des collines et des marchés de Kigali, '.repeat(40)}fin.`;
    const job = (deadline: number) => ({
      input: { kind: 'text', text: long } as const,
      voice: speaker.engineVoice,
      output: { sampleRate: 8000, encoding: 'mulaw' } as const,
      deadline,
    });
    const alone = await collect(pool.synthesize(job(performance.now())));
    // Whether a worker gives its clause up depends on where the engine is when the urgent clause
    // comes (between its first and second second of audio), which a loaded machine can move: the
    // scene is played until a long clause was interrupted, and every clause kept must be whole.
    let interrupted = 0;
    for (let attempt = 0; attempt < 5 && interrupted === 0; attempt++) {
      const now = performance.now();
      const kept: CachedClause[] = [];
      // Both workers take a long clause that may yield; an urgent clause then waits for one of them.
      const recorded = [now, now + 1].map((deadline) => {
        const shared = new SharedClause(
          (signal) => pool.synthesize({ ...job(deadline), signal }),
          (c) => kept.push(c),
          () => {},
        );
        return collect(shared.reader({ copies: false, words: () => {} })).then(() => 'long');
      });
      const urgent = collect(
        pool.synthesize({ ...job(now - 1), input: { kind: 'text', text: 'Bonjour.' } }),
      ).then(() => 'urgent');
      if ((await Promise.race([urgent, ...recorded])) === 'urgent') interrupted++;
      await Promise.all([urgent, ...recorded]);
      assert.equal(kept.length, 2);
      for (const clause of kept)
        assert.ok(Buffer.from(clause.audio).equals(alone), 'kept whole, without repeats');
    }
    assert.equal(interrupted, 1, 'a long clause gave its worker up to the urgent one');
  });

  it('goes on speaking a clause for the calls that joined it when the call that started it hangs up', async () => {
    const clauses = new ClauseCache(8 * 1024 * 1024).forAccount('acct_join');
    const speaker = voice('fr', 0);
    const target: AudioTarget = { kind: 'stream', format: streamFormats.pcm16_8k };
    const text = `Nous parlons longtemps de la pluie et des collines et des marchés de Kigali ${'et encore '.repeat(20)}fin.`;
    const firstJob = jobs.length;
    const leaving = new AbortController();
    const leaver = synthesize(pool, {
      ...plainSpeech(text, 'fr'),
      voice: speaker,
      target,
      clauses,
      signal: leaving.signal,
    });
    assert.equal((await leaver.next()).value?.type, 'audio', 'the first call hears its clause begin');
    const staying = run(pool, text, speaker, target, clauses);
    leaving.abort(new Error('hung up'));
    await assert.rejects(leaver.next(), /hung up/);
    const heard = await staying;
    const clauseCount = splitClauses(frontEndFor('fr').normalize(text)).length;
    assert.equal(jobs.length - firstJob, clauseCount, 'one engine job per clause for both calls');
    assert.deepEqual(audioOf(heard), audioOf(await run(pool, text, speaker, target)), 'the whole clause');
  });

  it('keeps nothing of a clause cut short: a stream stopped mid-clause leaves no entry', async () => {
    const cache = new ClauseCache(8 * 1024 * 1024);
    const clauses = cache.forAccount('acct_cut');
    const target: AudioTarget = { kind: 'stream', format: streamFormats.pcm16_24k };
    const text = 'Thank you for calling, and welcome to the Kigali Dental clinic in Kacyiru.';
    for await (const event of synthesize(pool, {
      ...plainSpeech(text, 'en'),
      voice: voice('en', 2),
      target,
      clauses,
    })) {
      if (event.type === 'audio') break;
    }
    assert.equal(cache.stats().entries, 0, 'no partial audio was kept');
    const before = jobs.length;
    const whole = await run(pool, text, voice('en', 2), target, clauses);
    assert.ok(jobs.length > before, 'the next request speaks the clause');
    assert.deepEqual(audioOf(whole), audioOf(await run(pool, text, voice('en', 2), target)));
    assert.ok(cache.stats().entries > 0, 'and keeps it whole');
  });
});

describe('ClauseCache', () => {
  const speaker = findVoice('en', 0) as Voice;
  const spec = (text: string): ClauseSpec => ({
    input: { kind: 'text', text },
    voice: speaker,
    rate: 1,
    output: { sampleRate: 8000, encoding: 'mulaw' },
  });
  const clause = (bytes: number): CachedClause => ({
    audio: new Uint8Array(bytes),
    partEnds: [bytes],
    words: undefined,
  });

  it('counts each entry as its audio and more, and evicts the least recently used first', () => {
    const cache = new ClauseCache(64 * 1024);
    const clauses = cache.forAccount('acct_lru');
    assert.ok(clauses);
    clauses.put(spec('one'), clause(1000));
    assert.ok(cache.stats().bytes > 1000, 'bookkeeping counts too');
    for (let i = 0; i < 200; i++) {
      clauses.put(spec(`filler ${i}`), clause(1000));
      // The first entry stays in use, so it stays.
      assert.ok(clauses.get(spec('one')), `the entry in use survives ${i + 1} others`);
      assert.ok(cache.stats().bytes <= cache.maxBytes);
    }
    assert.equal(clauses.get(spec('filler 0')), undefined, 'the least recently used went first');
    assert.ok(clauses.get(spec('filler 199')));
    assert.ok(cache.stats().entries < 64);
  });

  it('keeps the phrases said again through a flood of clauses said once', () => {
    const cache = new ClauseCache(1024 * 1024);
    const clauses = cache.forAccount('acct_agent');
    assert.ok(clauses);
    const greeting = spec('Thank you for calling.');
    clauses.put(greeting, clause(16_000));
    assert.ok(clauses.get(greeting), 'said on a second call');
    for (let i = 0; i < 1000; i++) clauses.put(spec(`A reply of its own, number ${i}.`), clause(16_000));
    assert.ok(cache.stats().evictions > 900);
    assert.ok(clauses.get(greeting), 'the greeting is still there');
  });

  it('keeps no entry larger than a sixteenth of the bound, and nothing when the bound is 0', () => {
    const cache = new ClauseCache(64 * 1024);
    cache.forAccount('acct_big')?.put(spec('long'), clause(8 * 1024));
    assert.equal(cache.stats().entries, 0);
    assert.equal(new ClauseCache(0).forAccount('acct_off'), undefined);
  });

  it('keys by everything that decides the bytes, and by the account', () => {
    const base = clauseKey('acct_a', spec('Hello.'));
    const changed: ClauseSpec[] = [
      spec('Hello!'),
      { ...spec('Hello.'), input: { kind: 'phonemes', phonemes: 'Hello.' } },
      { ...spec('Hello.'), rate: 1.25 },
      { ...spec('Hello.'), output: { sampleRate: 8000, encoding: 'alaw' } },
      { ...spec('Hello.'), output: { sampleRate: 16_000, encoding: 'mulaw' } },
      { ...spec('Hello.'), voice: findVoice('en', 1) as Voice },
      {
        ...spec('Hello.'),
        voice: { ...speaker, engineVoice: { ...speaker.engineVoice, stretch: 1.1 } } as Voice,
      },
      // A voice calibrated again speaks every clause at another level.
      { ...spec('Hello.'), voice: { ...speaker, gainDb: (speaker.gainDb ?? 0) + 1 } },
      // A first phrase whose sentence goes on ends without the pause of a clause end.
      { ...spec('Hello.'), input: { kind: 'text', text: 'Hello.', goesOn: true } },
    ];
    for (const other of changed) assert.notEqual(clauseKey('acct_a', other), base, JSON.stringify(other));
    assert.notEqual(clauseKey('acct_b', spec('Hello.')), base);
    assert.equal(clauseKey('acct_a', spec('Hello.')), base, 'the same clause, the same key');
    const pack = { id: 'tiny', version: 'v1', name: 'Tiny', speaker: 'A', attribution: '' };
    const packed = { ...speaker, pack: { ...pack, licence: { name: 'x', url: '', commercial: true } } };
    const reinstalled = { ...packed, pack: { ...packed.pack, version: 'v2' } };
    assert.notEqual(
      clauseKey('acct_a', { ...spec('Hello.'), voice: packed }),
      clauseKey('acct_a', { ...spec('Hello.'), voice: reinstalled }),
      'a pack installed again under its id is another voice',
    );
  });
});
