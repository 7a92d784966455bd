import type { CliOption } from './command';
import type { ConnectionOverrides } from '../connection/connection-overrides';

/** The connection options every command takes (flags win over TEMPORAL_* variables, which win over the profile). */
export const CONNECTION_FLAGS = {
  address: { type: 'string', valueName: 'HOST:PORT', description: 'Temporal frontend', env: 'TEMPORAL_ADDRESS', defaultText: '127.0.0.1:7233' },
  namespace: { type: 'string', valueName: 'NS', description: 'namespace', env: 'TEMPORAL_NAMESPACE', defaultText: 'default' },
  'api-key': { type: 'string', valueName: 'KEY', description: 'API key (Temporal Cloud); turns TLS on', env: 'TEMPORAL_API_KEY' },
  tls: { type: 'boolean', description: 'connect with TLS (system CAs unless --tls-ca)', env: 'TEMPORAL_TLS' },
  'tls-cert': { type: 'string', valueName: 'PATH', description: 'client certificate for mTLS', env: 'TEMPORAL_TLS_CLIENT_CERT_PATH' },
  'tls-key': { type: 'string', valueName: 'PATH', description: 'client key for mTLS', env: 'TEMPORAL_TLS_CLIENT_KEY_PATH' },
  'tls-ca': { type: 'string', valueName: 'PATH', description: "CA certificate of the server's", env: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH' },
  'tls-server-name': { type: 'string', valueName: 'NAME', description: 'server name to verify (SNI)', env: 'TEMPORAL_TLS_SERVER_NAME' },
  profile: { type: 'string', valueName: 'NAME', description: 'profile of the config file', env: 'TEMPORAL_PROFILE', defaultText: 'default' },
  'config-file': {
    type: 'string',
    valueName: 'PATH',
    description: "Temporal's client config file (TOML)",
    env: 'TEMPORAL_CONFIG_FILE',
    defaultText: '~/.config/temporalio/temporal.toml',
  },
} as const satisfies Record<string, CliOption>;

const STRING_FLAGS: [keyof typeof CONNECTION_FLAGS, keyof ConnectionOverrides][] = [
  ['address', 'address'],
  ['namespace', 'namespace'],
  ['api-key', 'apiKey'],
  ['tls-cert', 'tlsCertPath'],
  ['tls-key', 'tlsKeyPath'],
  ['tls-ca', 'tlsCaPath'],
  ['tls-server-name', 'tlsServerName'],
  ['profile', 'profile'],
  ['config-file', 'configFile'],
];

/** The flags given, as overrides of Temporal's environment configuration (flags > env > profile). */
export function connectionOverridesFromFlags(values: Record<string, unknown>): ConnectionOverrides {
  const overrides: Record<string, unknown> = {};
  for (const [flag, field] of STRING_FLAGS) {
    if (typeof values[flag] === 'string') overrides[field] = values[flag];
  }
  if (values.tls === true) overrides.tls = true;
  return overrides as ConnectionOverrides;
}
