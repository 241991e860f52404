import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsExposition } from '../metrics/metrics.ts';
import { scrapeAllowed } from './routes/metrics.ts';

export interface MetricsListenerOptions {
  readonly exposition: MetricsExposition;
  readonly port: number;
  /** Loopback unless the operator names another address (METRICS_HOST). */
  readonly host: string;
  /** When set, a scraper must send it as a bearer token here too. */
  readonly token: string | null;
}

export interface MetricsListener {
  readonly port: number;
  close(): Promise<void>;
}

function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  response.end(`${text}\n`);
}

/**
 * A listener of its own for GET /metrics (METRICS_PORT), apart from the API's port, so a private
 * network or loopback scraper reaches the metrics without their being on the public port. Plain
 * Node HTTP: it answers one path, and a failure here never touches the API's server.
 */
export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return plain(response, 404, 'only /metrics is served here');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return plain(response, 405, 'use GET', { Allow: 'GET, HEAD' });
    if (options.token !== null && !scrapeAllowed(request.headers.authorization, options.token))
      return plain(response, 401, 'send the metrics token as "Authorization: Bearer <token>"', {
        'WWW-Authenticate': 'Bearer',
      });
    options.exposition.render().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => plain(response, 500, 'metrics could not be collected'),
    );
  });
  // Scrapes are short; a connection that sends nothing is not kept.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
