/**
 * A store that still serves, in a reduced mode, with the reason: e.g. the shared rate limit is
 * unreachable and each instance limits on its own.
 */
export interface Degraded {
  readonly degraded: string;
}

/**
 * What a store tells a health check: `true` when it works, `{ degraded }` when it still serves
 * requests in a reduced mode, otherwise a short reason why it cannot serve. Reasons carry no
 * secrets, hosts or paths: health is public.
 */
export type CheckResult = true | string | Degraded;
