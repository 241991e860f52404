import type { Agent } from 'node:http';
import { type FreshCall, freshBurst, freshResults } from './fresh-burst-run.ts';
import {
  benchAgent,
  type CallTarget,
  fileCall,
  openConnections,
  type StreamCall,
  startAndHangUp,
  streamCall,
} from './http-client.ts';
import { type LiveHttp, liveCall, liveResults } from './live.ts';
import {
  type BurstHttp,
  type FileHttp,
  type FreshBurstHttp,
  firstByteByEngine,
  type HangUpHttp,
  type HttpResults,
  type LoadMessage,
  type LoadPlan,
  latenciesOf,
  median,
  type SequentialHttp,
  type SustainedStep,
} from './results.ts';
import { targets, WARM_UP_BURST } from './settings.ts';
import { percentiles } from './stats.ts';
import { sustainedStep } from './sustained.ts';
import { benchLanguages, interleave, loadTurns, longText, type Turn } from './turns.ts';

// The load generator: a process of its own, so that the server's figures are not those of a
// process that also runs the clients. It gets its plan from the bench over IPC, announces each
// phase (the bench samples the server's memory per phase) and sends back the results.

const LONG_STREAM_CHARACTERS = 4_000;
const SETTLE_MS = 500;

function tell(message: LoadMessage): void {
  process.send?.(message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Load {
  readonly #agent: Agent = benchAgent();
  readonly #plan: LoadPlan;
  readonly #turns: readonly Turn[];
  #nextKey = 0;

  constructor(plan: LoadPlan, turns: readonly Turn[]) {
    this.#plan = plan;
    this.#turns = turns;
  }

  /** Keys take turns, so no key comes near the per-key rate limit. */
  target(): CallTarget {
    const key = this.#plan.keys[this.#nextKey++ % this.#plan.keys.length] ?? '';
    return { agent: this.#agent, base: this.#plan.base, key };
  }

  call(index: number, turns: readonly Turn[] = this.#turns): Promise<StreamCall> {
    const turn = turns[index % turns.length];
    if (!turn) throw new Error('no turns');
    const { language, text, speakerId } = turn;
    return streamCall(this.target(), language, text, speakerId);
  }

  async burst(size: number, offset: number): Promise<{ calls: StreamCall[]; makespanMs: number }> {
    await openConnections(this.#agent, this.#plan.base, size);
    const start = performance.now();
    const calls = await Promise.all(Array.from({ length: size }, (_, i) => this.call(offset + i)));
    return { calls, makespanMs: performance.now() - start };
  }

  async warmUp(): Promise<void> {
    for (let i = 0; i < this.#turns.length; i++) await this.call(i);
    await this.burst(WARM_UP_BURST, 0);
  }

  async sequential(): Promise<SequentialHttp[]> {
    const calls: StreamCall[] = [];
    for (let pass = 0; pass < this.#plan.settings.sequentialPasses; pass++) {
      for (let i = 0; i < this.#turns.length; i++) calls.push(await this.call(i));
    }
    return benchLanguages.map((language) => ({
      language,
      ...latenciesOf(calls.filter((c) => c.language === language)),
    }));
  }

  async bursts(): Promise<BurstHttp[]> {
    const results: BurstHttp[] = [];
    for (const size of this.#plan.settings.burstSizes) {
      tell({ type: 'phase', name: `burst ${size}` });
      const rounds = [];
      for (let r = 0; r < this.#plan.settings.burstRepeats; r++) {
        rounds.push(await this.burst(size, r * size));
        await sleep(SETTLE_MS);
      }
      const calls = rounds.flatMap((r) => r.calls);
      const latencies = latenciesOf(calls);
      results.push({
        size,
        repeats: rounds.length,
        ...latencies,
        lateStreams: calls.filter((c) => c.lateMs > 0).length,
        worstLateMs: Math.max(0, ...calls.map((c) => (Number.isNaN(c.lateMs) ? 0 : c.lateMs))),
        byEngine: firstByteByEngine(calls.map((c) => ({ ...c, firstMs: c.ttfbMs }))),
        makespanMs: median(rounds.map((r) => r.makespanMs)),
        throughput: median(
          rounds.map((r) => r.calls.reduce((sum, c) => sum + c.audioSeconds, 0) / (r.makespanMs / 1000)),
        ),
      });
    }
    return results;
  }

  async files(): Promise<FileHttp[]> {
    const turns = await loadTurns();
    const results: FileHttp[] = [];
    for (const language of benchLanguages) {
      const input = longText(turns, language, this.#plan.settings.fileCharacters);
      const calls = [];
      for (let r = 0; r < this.#plan.settings.fileRepeats; r++)
        calls.push(await fileCall(this.target(), language, input));
      const good = calls.filter((c) => c.error === undefined);
      results.push({
        language,
        characters: [...input].length,
        audioSeconds: good[0]?.audioSeconds ?? 0,
        errors: calls.length - good.length,
        responseMs: percentiles(good.map((c) => c.responseMs)),
        downloadMs: percentiles(good.map((c) => c.downloadMs)),
      });
    }
    return results;
  }

  /** The sustained ladder over `turns`, its phases named `<label> <rate>/s`. */
  async sustained(rates: readonly number[], turns: readonly Turn[], label: string): Promise<SustainedStep[]> {
    const { sustainedSeconds, sustainedStopAfterFailures } = this.#plan.settings;
    const steps: SustainedStep[] = [];
    let failures = 0;
    let offset = 0;
    for (const rate of rates) {
      tell({ type: 'phase', name: `${label} ${rate}/s` });
      const step = await sustainedStep(rate, sustainedSeconds, targets.sustainedTtfbP95Ms, (i) =>
        this.call(offset + i, turns),
      );
      offset += step.latencies.calls;
      steps.push(step);
      failures = step.passed ? 0 : failures + 1;
      if (failures >= sustainedStopAfterFailures) break;
      await sleep(SETTLE_MS);
    }
    return steps;
  }

  /**
   * Bursts of fresh calls as a platform opening many calls at 9 a.m. makes them: each round in a new
   * process (new connections), one key per call, then the same texts to the naive peer.
   */
  async freshBursts(): Promise<FreshBurstHttp[]> {
    const results: FreshBurstHttp[] = [];
    for (const size of this.#plan.settings.freshBurstSizes) {
      const ijwi: FreshCall[] = [];
      const peer: FreshCall[] = [];
      for (let r = 0; r < this.#plan.settings.burstRepeats; r++) {
        const turns = Array.from(
          { length: size },
          (_, i) => this.#turns[(r * size + i) % this.#turns.length] as Turn,
        );
        tell({ type: 'phase', name: `fresh burst ${size}` });
        const keys = turns.map(() => this.target().key);
        ijwi.push(
          ...(await freshBurst({ type: 'fresh-burst', base: this.#plan.base, keys, turns, target: 'ijwi' })),
        );
        await sleep(SETTLE_MS);
        if (this.#plan.peerBase !== undefined) {
          tell({ type: 'phase', name: `peer burst ${size}` });
          peer.push(
            ...(await freshBurst({ type: 'fresh-burst', base: this.#plan.peerBase, turns, target: 'peer' })),
          );
          await sleep(SETTLE_MS);
        }
      }
      results.push(freshResults(size, this.#plan.settings.burstRepeats, ijwi, peer));
    }
    return results;
  }

  /** Live sockets streaming replies word by word, `sockets` at once, per size of the settings. */
  async live(): Promise<LiveHttp[]> {
    const results: LiveHttp[] = [];
    for (const sockets of this.#plan.settings.liveSockets) {
      tell({ type: 'phase', name: `live ${sockets}` });
      const calls = [];
      // One socket alone gives few samples per round: it gets more rounds.
      const repeats = this.#plan.settings.burstRepeats * (sockets === 1 ? 4 : 1);
      for (let r = 0; r < repeats; r++) {
        const turns = Array.from(
          { length: sockets },
          (_, i) => this.#turns[(r * sockets + i) % this.#turns.length],
        );
        calls.push(...(await Promise.all(turns.map((turn) => liveCall(this.target(), turn as Turn)))));
        await sleep(SETTLE_MS);
      }
      results.push(liveResults(sockets, repeats, calls));
    }
    return results;
  }

  async hangUp(): Promise<HangUpHttp> {
    const turns = await loadTurns();
    const long = longText(turns, 'en', LONG_STREAM_CHARACTERS);
    const idle: number[] = [];
    const after: number[] = [];
    for (let r = 0; r < this.#plan.settings.hangUpRepeats; r++) {
      idle.push((await this.call(1)).ttfbMs);
      await sleep(SETTLE_MS / 5);
      const hangUps = await Promise.all(
        Array.from({ length: this.#plan.poolSize }, () => startAndHangUp(this.target(), 'en', long)),
      );
      for (const hangUp of hangUps) hangUp();
      after.push((await this.call(1)).ttfbMs);
      await sleep(SETTLE_MS / 5);
    }
    return {
      idleTtfb: percentiles(idle),
      afterHangUpTtfb: percentiles(after),
      longStreams: this.#plan.poolSize,
    };
  }
}

async function run(plan: LoadPlan): Promise<HttpResults> {
  const turns = interleave(await loadTurns());
  const load = new Load(plan, turns);
  tell({ type: 'phase', name: 'warm-up' });
  await load.warmUp();
  tell({ type: 'phase', name: 'one at a time' });
  const sequential = await load.sequential();
  const bursts = await load.bursts();
  const freshBursts = await load.freshBursts();
  const { sustainedRates, englishSustainedRates } = plan.settings;
  const sustained = await load.sustained(sustainedRates, turns, 'sustained');
  const english = turns.filter((turn) => turn.language === 'en');
  const sustainedEnglish = await load.sustained(englishSustainedRates, english, 'sustained en');
  const live = await load.live();
  tell({ type: 'phase', name: 'hang-up' });
  const hangUp = await load.hangUp();
  // Last: a 10,000-character file holds its audio twice over in memory (about 70 MB), which
  // the process keeps as its own afterwards; the peaks of the call scenarios come before it.
  tell({ type: 'phase', name: 'file' });
  const files = await load.files();
  return { sequential, bursts, files, sustained, sustainedEnglish, hangUp, live, freshBursts };
}

/** The live scenario alone (`npm run bench -- --only live`), after the same warm-up. */
async function runLive(plan: LoadPlan): Promise<readonly LiveHttp[]> {
  const load = new Load(plan, interleave(await loadTurns()));
  tell({ type: 'phase', name: 'warm-up' });
  await load.warmUp();
  return load.live();
}

/** Sends what `work` gives, or its failure, then lets the bench go on. */
function answer<T>(work: Promise<T>, message: (results: T) => LoadMessage): void {
  work.then(
    (results) => {
      tell(message(results));
      process.disconnect?.();
    },
    (error: unknown) => {
      tell({
        type: 'failed',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      process.disconnect?.();
    },
  );
}

process.once('message', (plan: LoadPlan) => {
  if (plan.only === 'live') answer(runLive(plan), (results) => ({ type: 'live', results }));
  else answer(run(plan), (results) => ({ type: 'done', results }));
});
