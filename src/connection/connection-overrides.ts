/**
 * Connection settings given in code or as CLI flags. Each one wins over Temporal's environment
 * variables, which win over the profile of the Temporal config file. Unset fields change nothing.
 */
export interface ConnectionOverrides {
  /** host:port of the Temporal frontend (`--address`, TEMPORAL_ADDRESS). */
  address?: string;
  /** `--namespace`, TEMPORAL_NAMESPACE. */
  namespace?: string;
  /** Sent as `Authorization: Bearer …`; turns TLS on unless TLS is turned off explicitly (`--api-key`, TEMPORAL_API_KEY). */
  apiKey?: string;
  /** true: TLS (with the system's CAs unless a CA is given); false: plaintext even with an API key (`--tls`, TEMPORAL_TLS). */
  tls?: boolean;
  /** PEM client certificate for mTLS (`--tls-cert`, TEMPORAL_TLS_CLIENT_CERT_PATH). */
  tlsCertPath?: string;
  /** PEM key of the client certificate (`--tls-key`, TEMPORAL_TLS_CLIENT_KEY_PATH). */
  tlsKeyPath?: string;
  /** PEM CA certificate the server's certificate must chain to (`--tls-ca`, TEMPORAL_TLS_SERVER_CA_CERT_PATH). */
  tlsCaPath?: string;
  /** Name the server's certificate must be valid for, when it differs from the address's host (`--tls-server-name`, TEMPORAL_TLS_SERVER_NAME). */
  tlsServerName?: string;
  /** Profile of the config file (`--profile`, TEMPORAL_PROFILE; `default` otherwise). */
  profile?: string;
  /** Temporal's TOML config file (`--config-file`, TEMPORAL_CONFIG_FILE; ~/.config/temporalio/temporal.toml otherwise). */
  configFile?: string;
  /** How long connecting may take before it fails (default 5 s). */
  connectTimeoutMs?: number;
}

const OVERRIDE_KEYS: readonly (keyof ConnectionOverrides)[] = [
  'address',
  'namespace',
  'apiKey',
  'tls',
  'tlsCertPath',
  'tlsKeyPath',
  'tlsCaPath',
  'tlsServerName',
  'profile',
  'configFile',
  'connectTimeoutMs',
];

/** Separates the connection overrides from the other fields of an options object. */
export function splitConnectionOverrides<T extends ConnectionOverrides>(
  options: T,
): { overrides: ConnectionOverrides; rest: Omit<T, keyof ConnectionOverrides> } {
  const overrides: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((OVERRIDE_KEYS as readonly string[]).includes(key)) {
      if (value !== undefined) overrides[key] = value;
    } else {
      rest[key] = value;
    }
  }
  return { overrides: overrides as ConnectionOverrides, rest: rest as Omit<T, keyof ConnectionOverrides> };
}
