/**
 * A TCP proxy on 127.0.0.1 to a server, that a test can shut: its open connections are cut and new
 * ones refused, as when the server behind it goes down (without touching the shared server).
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** While held, what clients send is swallowed: a request through it hangs, as on a server that froze. Releasing cuts those connections. */
  hold(on: boolean): void;
  /** Client connections closed since the proxy started (a cancelled request closes its connection). */
  closedByClients(): number;
  /** Cuts every connection and stops listening: connecting is refused from now on (again: nothing). */
  shut(): Promise<void>;
}

export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  let held = false;
  let closed = 0;
  const server = createServer((client) => {
    const upstream = connect(port, host);
    track(client);
    track(upstream);
    client.on('close', () => (closed += 1));
    client.on('data', (chunk: Buffer) => {
      if (!held) upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    hold(on) {
      // Connections that swallowed part of a request are of no use after: cut them, clients reconnect.
      if (held && !on) for (const s of sockets) s.destroy();
      held = on;
    },
    closedByClients: () => closed,
    async shut() {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
