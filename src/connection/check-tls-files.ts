import { accessSync, constants, statSync } from 'node:fs';
import type { ClientConfigTLS, ConfigDataSource } from '@temporalio/envconfig';

const FILES = [
  { field: 'clientCert', what: 'TLS client certificate', where: '--tls-cert, TEMPORAL_TLS_CLIENT_CERT_PATH or tls.client_cert_path' },
  { field: 'clientKey', what: 'TLS client key', where: '--tls-key, TEMPORAL_TLS_CLIENT_KEY_PATH or tls.client_key_path' },
  { field: 'serverCACert', what: 'TLS server CA certificate', where: '--tls-ca, TEMPORAL_TLS_SERVER_CA_CERT_PATH or tls.server_ca_cert_path' },
] as const;

function unreadable(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return 'not a file';
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such file';
    if (code === 'EACCES') return 'permission denied';
    return (error as Error).message;
  }
}

function pathOf(source: ConfigDataSource | undefined): string | undefined {
  return source && 'path' in source ? source.path : undefined;
}

/**
 * Names the file and the setting behind it before Temporal's loader reads them (its own error is
 * a bare ENOENT), and refuses half a client certificate, which the loader would silently drop.
 */
export function checkTlsFiles(tls: ClientConfigTLS | undefined): void {
  if (!tls || tls.disabled) return;
  for (const file of FILES) {
    const path = pathOf(tls[file.field]);
    const problem = path === undefined ? undefined : unreadable(path);
    if (problem) throw new Error(`Cannot read the ${file.what} ${path} (set by ${file.where}): ${problem}.`);
  }
  if (Boolean(tls.clientCert) !== Boolean(tls.clientKey)) {
    throw new Error(
      tls.clientCert
        ? 'A TLS client certificate is set without its key: set --tls-key or TEMPORAL_TLS_CLIENT_KEY_PATH too.'
        : 'A TLS client key is set without its certificate: set --tls-cert or TEMPORAL_TLS_CLIENT_CERT_PATH too.',
    );
  }
}
