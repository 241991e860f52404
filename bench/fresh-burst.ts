import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import type { Turn } from './turns.ts';

// One burst of fresh calls, in a process of its own so that every connection is new: `size`
// calls sent together with fetch, one key each, `mulaw_8k`, each body read as fast as it arrives;
// or the same texts to the naive peer, whose whole file is the first and last byte at once; or, as
// the floor of what any request costs the service, as many GETs of the voices listing.

export interface FreshBurstPlan {
  readonly type: 'fresh-burst';
  readonly base: string;
  /** One key per call; absent for the peer. */
  readonly keys?: readonly string[];
  readonly turns: readonly Turn[];
  readonly target: 'ijwi' | 'peer' | 'listing';
}

export interface FreshCall {
  readonly language: LanguageCode;
  /** Request sent -> first body byte (the peer: the whole file). */
  readonly firstByteMs: number;
  /** Request sent -> last body byte. */
  readonly lastByteMs: number;
  /** The service's own X-Voice-Ttfa-Ms; NaN for the peer. */
  readonly serverTtfaMs: number;
  readonly error?: string;
}

async function call(plan: FreshBurstPlan, turn: Turn, index: number): Promise<FreshCall> {
  const sentAt = performance.now();
  const failed = (error: string): FreshCall => ({
    language: turn.language,
    firstByteMs: Number.NaN,
    lastByteMs: Number.NaN,
    serverTtfaMs: Number.NaN,
    error,
  });
  try {
    const ijwi = plan.target === 'ijwi';
    const response =
      plan.target === 'listing'
        ? await fetch(`${plan.base}/api/v1/voices.php?format=json`)
        : await fetch(ijwi ? `${plan.base}/api/v1/tts-stream.php` : `${plan.base}/speak`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              ...(ijwi ? { Authorization: `Bearer ${plan.keys?.[index] ?? ''}` } : {}),
            },
            body: JSON.stringify({
              input: turn.text,
              language: turn.language,
              speaker_id: turn.speakerId,
              format: 'mulaw_8k',
            }),
          });
    if (!response.ok || response.body === null) return failed(`status ${response.status}`);
    const reader = response.body.getReader();
    let first = Number.NaN;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (Number.isNaN(first) && value.byteLength > 0) first = performance.now();
    }
    return {
      language: turn.language,
      firstByteMs: first - sentAt,
      lastByteMs: performance.now() - sentAt,
      serverTtfaMs: Number(response.headers.get('x-voice-ttfa-ms') ?? Number.NaN),
    };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
}

process.once('message', (plan: FreshBurstPlan) => {
  Promise.all(plan.turns.map((turn, i) => call(plan, turn, i))).then((calls) => {
    process.send?.({ type: 'done', calls });
    process.disconnect?.();
  });
});
