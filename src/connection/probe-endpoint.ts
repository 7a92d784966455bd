import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions as TlsOptions } from 'node:tls';
import type { ConnectionSettings } from './connection-settings';
import { splitAddress } from './split-address';

export type ProbeResult = { ok: true } | { ok: false; error: Error };

export interface Probe {
  result: Promise<ProbeResult>;
  cancel(): void;
}

// With TLS 1.3 the client finishes its handshake before the server has checked the client
// certificate: a server that refuses it sends an alert, one that accepts it a session ticket.
// Without a ticket (servers may send none), silence for this long counts as accepted.
const ALERT_GRACE_MS = 300;

function tlsOptions(settings: ConnectionSettings, host: string, port: number): TlsOptions {
  const tls = typeof settings.connectionOptions.tls === 'object' ? settings.connectionOptions.tls : {};
  const servername = tls.serverNameOverride ?? (isIP(host) ? undefined : host);
  const pair = tls.clientCertPair;
  return {
    host,
    port,
    ALPNProtocols: ['h2'],
    ...(servername ? { servername } : {}),
    ...(tls.serverRootCACertificate ? { ca: Buffer.from(tls.serverRootCACertificate) } : {}),
    ...(pair ? { cert: Buffer.from(pair.crt), key: Buffer.from(pair.key) } : {}),
  };
}

/**
 * Opens one TCP (or TLS, with the same CA, client certificate and server name) connection to the
 * server and closes it: what failed, in words, when Temporal's own connection only says it did.
 * `onOpen` runs as soon as the server has accepted the connection (and, with TLS, the handshake).
 */
export function probeEndpoint(settings: ConnectionSettings, timeoutMs: number, onOpen: () => void = () => undefined): Probe {
  const { host, port } = splitAddress(settings.address);
  let socket: Socket | undefined;
  let timer: NodeJS.Timeout | undefined;
  let finish: (outcome: ProbeResult) => void = () => undefined;
  const result = new Promise<ProbeResult>((resolve) => {
    finish = (outcome) => {
      clearTimeout(timer);
      socket?.destroy();
      resolve(outcome);
    };
    timer = setTimeout(() => finish({ ok: false, error: Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' }) }), timeoutMs);
    try {
      if (settings.tls) {
        const tlsSocket = connectTls(tlsOptions(settings, host, port), () => {
          let accepted = false;
          const accept = (): void => {
            if (accepted) return;
            accepted = true;
            finish({ ok: true });
            onOpen();
          };
          if (tlsSocket.getProtocol() !== 'TLSv1.3') return accept();
          tlsSocket.once('session', accept);
          clearTimeout(timer);
          timer = setTimeout(accept, ALERT_GRACE_MS);
        });
        socket = tlsSocket;
      } else {
        socket = connectTcp({ host, port }, () => {
          finish({ ok: true });
          onOpen();
        });
      }
      socket.on('error', (error) => finish({ ok: false, error }));
    } catch (error) {
      finish({ ok: false, error: error as Error });
    }
  });
  return {
    result,
    cancel: () => finish({ ok: false, error: new Error('probe cancelled') }),
  };
}
