import type { StreamCall } from './http-client.ts';
import { latenciesOf, type SustainedStep } from './results.ts';

/**
 * How long a call is in flight, from its request: until its listener has heard it all, which is
 * first byte + audio duration when the stream keeps ahead of playback, or the last byte if later.
 */
function lifetimeMs(call: StreamCall): number {
  if (call.error !== undefined) return Number.isNaN(call.ttlbMs) ? 0 : call.ttlbMs;
  return Math.max(call.ttlbMs, call.ttfbMs + call.audioSeconds * 1000);
}

/** The most calls in flight at any moment. */
function peakInFlight(calls: readonly StreamCall[]): number {
  const edges = calls.flatMap((c) => [
    { at: c.sentAt, delta: 1 },
    { at: c.sentAt + lifetimeMs(c), delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let peak = 0;
  for (const edge of edges) {
    now += edge.delta;
    peak = Math.max(peak, now);
  }
  return peak;
}

/**
 * One step of an open model: a new call every 1/rate s for `seconds`, whatever the server does
 * (a slow server gets more calls in flight, not fewer arrivals), then waits for all to finish.
 */
export async function sustainedStep(
  rate: number,
  seconds: number,
  ttfbTargetMs: number,
  call: (index: number) => Promise<StreamCall>,
): Promise<SustainedStep> {
  const count = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const running: Promise<StreamCall>[] = [];
  let lag = 0;
  const start = performance.now();
  while (running.length < count) {
    const now = performance.now();
    // Catch up on every call that is due: a late timer must not lower the arrival rate.
    while (running.length < count && start + running.length * interval <= now) {
      lag = Math.max(lag, now - (start + running.length * interval));
      running.push(call(running.length));
    }
    const wait = start + running.length * interval - performance.now();
    if (running.length < count) await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
  }
  const calls = await Promise.all(running);
  const latencies = latenciesOf(calls);
  const good = calls.filter((c) => c.error === undefined);
  const late = good.filter((c) => c.lateMs > 0);
  const meanLifetime = calls.reduce((sum, c) => sum + lifetimeMs(c), 0) / Math.max(1, calls.length);
  return {
    rate,
    seconds,
    latencies,
    // Little's law: arrivals per ms x mean time in flight, the steady state without the ramp-up.
    inFlightMean: (rate / 1000) * meanLifetime,
    inFlightPeak: peakInFlight(calls),
    lateStreams: late.length,
    worstLateMs: Math.max(0, ...good.map((c) => c.lateMs)),
    scheduleLagMs: lag,
    passed: latencies.errors === 0 && late.length === 0 && latencies.ttfb.p95 < ttfbTargetMs,
  };
}
