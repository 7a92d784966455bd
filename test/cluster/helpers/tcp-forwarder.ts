import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP forwarder: what connects to `listen` is piped to `target`, byte for byte. */
export interface TcpForwarder {
  /** host:port it listens on. */
  address: string;
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Closes the listener and every connection it forwards. */
  close(): Promise<void>;
}

export async function startTcpForwarder(listen: { host: string; port?: number }, target: { host: string; port: number }): Promise<TcpForwarder> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((inbound) => {
    accepted += 1;
    const outbound = createConnection({ host: target.host, port: target.port });
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.once('close', () => sockets.delete(socket));
      // One side's error or end closes the other: the forwarder holds nothing open by itself.
      socket.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    address: `${listen.host}:${port}`,
    port,
    accepted: () => accepted,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
