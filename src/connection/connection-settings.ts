import { toClientOptions, type ClientConnectConfig } from '@temporalio/envconfig';
import { checkTlsFiles } from './check-tls-files';
import type { ConnectionOverrides } from './connection-overrides';
import { loadConnectionProfile } from './load-connection-profile';

export const DEFAULT_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_NAMESPACE = 'default';
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

type NativeOptions = ClientConnectConfig['connectionOptions'];

/** Where to connect, without reading any certificate. */
export interface ConnectionTarget {
  address: string;
  namespace: string;
}

/** Everything needed to connect; `connectionOptions` holds the API key, so it is never logged. */
export interface ConnectionSettings extends ConnectionTarget {
  /** What both Connection.connect (client) and NativeConnection.connect (worker) take. */
  connectionOptions: Pick<NativeOptions, 'address' | 'apiKey' | 'metadata'> & { address: string; tls?: Exclude<NativeOptions['tls'], null> };
  /** Whether the connection uses TLS: asked for, implied by a certificate setting, or by an API key (Temporal's rule). */
  tls: boolean;
  hasApiKey: boolean;
  connectTimeoutMs: number;
}

/** Address and namespace from overrides, TEMPORAL_* variables and the config profile, in that order. */
export function resolveConnectionTarget(overrides: ConnectionOverrides = {}, env: NodeJS.ProcessEnv = process.env): ConnectionTarget {
  const profile = loadConnectionProfile(overrides, env);
  return { address: profile.address ?? DEFAULT_ADDRESS, namespace: profile.namespace ?? DEFAULT_NAMESPACE };
}

/**
 * The one place the worker, the client and the CLI get their connection from. Precedence:
 * overrides (code, CLI flags) > TEMPORAL_* environment variables > the config file's profile >
 * defaults (127.0.0.1:7233, namespace `default`, plaintext). TLS and the API key follow
 * Temporal's loader: an API key turns TLS on unless TLS is turned off explicitly.
 */
export function resolveConnectionSettings(overrides: ConnectionOverrides = {}, env: NodeJS.ProcessEnv = process.env): ConnectionSettings {
  const profile = loadConnectionProfile(overrides, env);
  checkTlsFiles(profile.tls);
  const { connectionOptions } = toClientOptions(profile);
  const address = profile.address ?? DEFAULT_ADDRESS;
  const tls = connectionOptions.tls ?? undefined;
  return {
    address,
    namespace: profile.namespace ?? DEFAULT_NAMESPACE,
    connectionOptions: {
      address,
      ...(tls !== undefined ? { tls } : {}),
      ...(connectionOptions.apiKey !== undefined ? { apiKey: connectionOptions.apiKey } : {}),
      ...(connectionOptions.metadata !== undefined ? { metadata: connectionOptions.metadata } : {}),
    },
    tls: Boolean(tls),
    hasApiKey: Boolean(connectionOptions.apiKey),
    connectTimeoutMs: overrides.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  };
}

/** A line safe to log: address, namespace, TLS and whether an API key is used (never the key). */
export function describeConnection(settings: ConnectionSettings): string {
  const extras = [settings.tls ? 'TLS' : 'plaintext', ...(settings.hasApiKey ? ['API key'] : [])];
  return `${settings.address} (${extras.join(', ')}), namespace ${settings.namespace}`;
}
