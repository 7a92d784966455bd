import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import type { TestPki } from './test-certs';

export interface TlsProxy {
  /** 127.0.0.1:<port> of the TLS side. */
  address: string;
  port: number;
  /** TLS connections that completed the handshake. */
  handshakes(): number;
  close(): Promise<void>;
}

export interface TlsProxyOptions {
  pki: TestPki;
  /** host:port of the plaintext server the decrypted bytes go to. */
  target: string;
  /** Ask for a client certificate signed by the CA and refuse connections without one (mTLS). */
  requireClientCert?: boolean;
}

/**
 * Terminates TLS (ALPN h2) in front of a plaintext gRPC server, the way a load balancer in front
 * of a secured Temporal cluster does: the dev server has no TLS settings of its own.
 */
export async function startTlsProxy(options: TlsProxyOptions): Promise<TlsProxy> {
  const at = options.target.lastIndexOf(':');
  const targetHost = options.target.slice(0, at);
  const targetPort = Number(options.target.slice(at + 1));
  const sockets = new Set<Socket>();
  let handshakes = 0;
  const server = createServer(
    {
      cert: readFileSync(options.pki.serverCert),
      key: readFileSync(options.pki.serverKey),
      ca: readFileSync(options.pki.caCert),
      ALPNProtocols: ['h2'],
      requestCert: options.requireClientCert === true,
      rejectUnauthorized: options.requireClientCert === true,
    },
    (client: TLSSocket) => {
      handshakes += 1;
      const upstream = connect({ host: targetHost, port: targetPort });
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  // Failed handshakes (the wrong-CA tests cause them on purpose) are the client's business.
  server.on('tlsClientError', () => undefined);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    port,
    handshakes: () => handshakes,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
