/**
 * Thrown when a store's server cannot be reached or cannot take the request now (down,
 * restarting, out of connections, locked past the busy timeout). Not a bug and not the
 * customer's fault: the HTTP edge answers 503 `not_ready` with Retry-After, and the caller may
 * try again. `reason` is a short text safe to log (an error code, never the driver's message);
 * the driver's error is kept as `cause`.
 */
export class StoreUnavailableError extends Error {
  constructor(
    /** Which store: `database`, `file storage`... */
    readonly store: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${store} unavailable: ${reason}`, options);
    this.name = 'StoreUnavailableError';
  }
}
