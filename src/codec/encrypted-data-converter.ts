import type { DataConverter } from '@temporalio/common';
import { createEncryptionCodec } from './encryption-codec';
import type { EncryptionKeySet } from './encryption-keys';
import { keylessCodec } from './keyless-codec';
import { loadEncryptionKeys } from './load-encryption-keys';

/**
 * Temporal's data converter with the encryption codec, for Worker.create, new Client(...),
 * createWorker({ dataConverter }) and AgentClient.connect({ dataConverter }). Failure messages and
 * stack traces are encrypted too (in the failure's encoded attributes); in the workflow code that
 * holds only where the worker bundles it at start: a prebuilt workflow bundle keeps the default
 * failure converter for failures raised by the workflow itself.
 */
export function encryptedDataConverter(keys: EncryptionKeySet): DataConverter {
  return {
    payloadCodecs: [createEncryptionCodec(keys)],
    failureConverterPath: require.resolve('./encrypted-failure-converter'),
  };
}

/** What a worker or client uses when given no data converter: the keys of the environment, if any. */
export interface ConfiguredDataConverter {
  dataConverter: DataConverter;
  /** The keys in use; undefined when the environment configures none (payloads are then written in plain text). */
  keys: EncryptionKeySet | undefined;
}

/**
 * The encrypted data converter when AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS configure
 * keys; else one that leaves payloads as they are and refuses encrypted ones with an error naming
 * their key.
 */
export function dataConverterFromEnv(env: NodeJS.ProcessEnv = process.env): ConfiguredDataConverter {
  const keys = loadEncryptionKeys(env);
  return { dataConverter: keys ? encryptedDataConverter(keys) : { payloadCodecs: [keylessCodec] }, keys };
}

/** One line for a log: which key encrypts, how many decrypt; never key material. */
export function describeEncryption(keys: EncryptionKeySet | undefined): string {
  if (!keys) return 'payloads not encrypted';
  const ids = Object.keys(keys.keys);
  return `payloads are encrypted with key '${keys.current}' (AES-256-GCM); ${ids.length} key(s) decrypt: ${ids.join(', ')}`;
}
