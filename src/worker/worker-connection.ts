import type { ConnectionOverrides } from '../connection/connection-overrides';
import { resolveConnectionSettings, resolveConnectionTarget, type ConnectionSettings } from '../connection/connection-settings';
import type { WorkerConfig } from './config';

export interface WorkerConnection {
  /** Undefined when the caller brought its own connection. */
  settings?: ConnectionSettings;
  /** The resolved fields of the running worker's config; `temporal` without the API key. */
  config: Pick<WorkerConfig, 'temporalAddress' | 'namespace' | 'temporal'>;
}

/**
 * The worker's connection settings: createWorker's config over Temporal's environment
 * configuration. Certificate files are read (and checked) only when the worker connects itself.
 */
export function resolveWorkerConnection(config: Partial<WorkerConfig>, ownConnection: boolean): WorkerConnection {
  const { temporalAddress, namespace, temporal } = config;
  const overrides: ConnectionOverrides = {
    ...temporal,
    ...(temporalAddress !== undefined ? { address: temporalAddress } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
  };
  const settings = ownConnection ? resolveConnectionSettings(overrides) : undefined;
  const target = settings ?? resolveConnectionTarget(overrides);
  const { apiKey: _key, ...withoutKey } = temporal ?? {};
  return {
    settings,
    config: {
      temporalAddress: target.address,
      namespace: target.namespace,
      ...(temporal ? { temporal: withoutKey } : {}),
    },
  };
}
