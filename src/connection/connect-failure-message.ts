import type { ConnectFailure } from './classify-connect-error';
import type { ConnectionSettings } from './connection-settings';
import { startServerCommands } from './start-server-hint';

const WHERE = '--address, TEMPORAL_ADDRESS or a profile of the Temporal config file';

function cause(failure: ConnectFailure, settings: ConnectionSettings): [string, string?] {
  const detail = failure.detail ? ` (${failure.detail})` : '';
  switch (failure.kind) {
    case 'refused':
      return ['connection refused: nothing listens on that port', `Start a server (${startServerCommands().map((command) => `\`${command}\``).join(' or ')}), or set the address (${WHERE}).`];
    case 'host-not-found':
      return [`the host name could not be resolved${detail}`, `Check the address (${WHERE}).`];
    case 'unreachable':
      return [`the host or its network is unreachable${detail}`];
    case 'timeout':
      return [
        `no answer within ${settings.connectTimeoutMs / 1000} s`,
        'A firewall, a wrong address or port, or a server that does not speak TLS the way this client does can cause it.',
      ];
    case 'untrusted-certificate':
      return [
        `the server's certificate was not trusted${detail}`,
        'Give the CA that signed it with --tls-ca or TEMPORAL_TLS_SERVER_CA_CERT_PATH.',
      ];
    case 'certificate-name-mismatch':
      return [
        `the server's certificate is not valid for the name it was reached by${detail}`,
        'Give the name it was issued for with --tls-server-name or TEMPORAL_TLS_SERVER_NAME.',
      ];
    case 'client-certificate-refused':
      return [
        `the server refused the TLS handshake: it wants a client certificate it trusts${detail}`,
        'Give one with --tls-cert and --tls-key (TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH).',
      ];
    case 'not-tls':
      return [
        `the server does not answer in TLS${detail}`,
        'TLS is on because of --tls, a TLS setting or an API key; for a plaintext server set TEMPORAL_TLS=false.',
      ];
    case 'closed':
      return [`the server closed the connection${detail}`, settings.tls ? undefined : 'If it wants TLS, add --tls (TEMPORAL_TLS=true).'];
    default:
      return [failure.detail || 'unknown error'];
  }
}

/** `Cannot connect to the Temporal server at ADDRESS[ over TLS]: CAUSE. HINT` */
export function connectFailureMessage(settings: ConnectionSettings, failure: ConnectFailure): string {
  const [reason, hint] = cause(failure, settings);
  return `Cannot connect to the Temporal server at ${settings.address}${settings.tls ? ' over TLS' : ''}: ${reason}.${hint ? ` ${hint}` : ''}`;
}
