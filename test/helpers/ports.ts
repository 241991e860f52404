import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on right now: for a server whose address must be known before
 * it starts, or for a client that must find nobody there.
 */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
