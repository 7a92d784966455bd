import type { ClientConfigProfile, ClientConfigTLS } from '@temporalio/envconfig';
import type { ConnectionOverrides } from './connection-overrides';

function tlsOverrides(tls: ClientConfigTLS | undefined, overrides: ConnectionOverrides): ClientConfigTLS | undefined {
  const { tlsCertPath, tlsKeyPath, tlsCaPath, tlsServerName } = overrides;
  const fileOrName = [tlsCertPath, tlsKeyPath, tlsCaPath, tlsServerName].some((value) => value !== undefined);
  if (overrides.tls === undefined && !fileOrName) return tls;
  return {
    ...tls,
    ...(tlsCertPath !== undefined ? { clientCert: { path: tlsCertPath } } : {}),
    ...(tlsKeyPath !== undefined ? { clientKey: { path: tlsKeyPath } } : {}),
    ...(tlsCaPath !== undefined ? { serverCACert: { path: tlsCaPath } } : {}),
    ...(tlsServerName !== undefined ? { serverName: tlsServerName } : {}),
    // Asking for a certificate, a CA or a server name asks for TLS; only an explicit `tls: false` says no.
    disabled: overrides.tls === false,
  };
}

/** The profile with the overrides (code or CLI flags) over what the file and the environment gave. */
export function applyConnectionOverrides(profile: ClientConfigProfile, overrides: ConnectionOverrides): ClientConfigProfile {
  const tls = tlsOverrides(profile.tls, overrides);
  return {
    ...profile,
    ...(overrides.address !== undefined ? { address: overrides.address } : {}),
    ...(overrides.namespace !== undefined ? { namespace: overrides.namespace } : {}),
    ...(overrides.apiKey !== undefined ? { apiKey: overrides.apiKey } : {}),
    ...(tls !== undefined ? { tls } : {}),
  };
}
