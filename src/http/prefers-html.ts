import type { FastifyRequest } from 'fastify';

/**
 * Whether a request is a browser asking for a page: a GET or HEAD whose `Accept` names
 * `text/html` with a quality at least that of `application/json`. Browsers send
 * `text/html,...,*\/*;q=0.8` for a page; API clients send `*\/*`, `application/json` or nothing,
 * and keep the JSON error body.
 */
export function prefersHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = request.headers.accept;
  if (typeof accept !== 'string' || accept.length > 1024) return false;
  const quality = (type: string) => {
    for (const part of accept.split(',')) {
      const [media = '', ...params] = part.trim().split(';');
      if (media.trim().toLowerCase() !== type) continue;
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return q === undefined ? 1 : Number(q);
    }
    return 0;
  };
  const html = quality('text/html');
  return html > 0 && html >= quality('application/json');
}
