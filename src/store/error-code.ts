/**
 * The error's code when it is a plain one (SQLITE_BUSY, a PostgreSQL SQLSTATE such as 57P01, a
 * socket error such as ECONNREFUSED), else undefined. Codes are safe to show in health and in
 * start-up errors; driver messages are not: they may carry paths, hosts or user names.
 */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

/** `what`, followed by the error's plain code in brackets when it has one. */
export function withErrorCode(what: string, error: unknown): string {
  const code = errorCode(error);
  return code === undefined ? what : `${what} (${code})`;
}
