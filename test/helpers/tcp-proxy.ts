import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder to `target` that a test can cut and restore, to play a database or Redis going
 * away and coming back without touching the real server. `stop()` closes every open connection
 * and the listening port (so new connections are refused); `start()` listens on the same port again.
 */
export class TcpProxy {
  readonly #targetHost: string;
  readonly #targetPort: number;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;

  constructor(targetHost: string, targetPort: number) {
    this.#targetHost = targetHost;
    this.#targetPort = targetPort;
  }

  /** The local port; fixed by the first `start()`. */
  get port(): number {
    return this.#port;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#targetPort, this.#targetHost);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP port');
    this.#port = address.port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
