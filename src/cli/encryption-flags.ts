import type { DataConverter } from '@temporalio/common';
import type { EncryptionKeySet } from '../codec/encryption-keys';
import type { CliOption } from './command';

/** The option every command takes; without it, the keys come from the environment (AgentClient.connect reads it). */
export const ENCRYPTION_FLAGS = {
  'encryption-key-file': {
    type: 'string',
    valueName: 'PATH',
    description: 'JSON file of the payload encryption keys ({"current":ID,"keys":{ID:BASE64}}); AGENT_ENCRYPTION_KEYS gives them inline',
    env: 'AGENT_ENCRYPTION_KEY_FILE',
  },
} as const satisfies Record<string, CliOption>;

/** The keys of --encryption-key-file, else of the environment; undefined when none are configured. */
export function encryptionKeysFromFlags(values: Record<string, unknown>): EncryptionKeySet | undefined {
  // Loaded on use: `--help` and usage errors never pay for the codec.
  const { loadEncryptionKeys, readEncryptionKeyFile } = require('../codec/load-encryption-keys') as typeof import('../codec/load-encryption-keys');
  const file = values['encryption-key-file'];
  return typeof file === 'string' ? readEncryptionKeyFile(file) : loadEncryptionKeys();
}

/** AgentClient.connect's `dataConverter` for --encryption-key-file; nothing without it. */
export function dataConverterFromFlags(values: Record<string, unknown>): { dataConverter?: DataConverter } {
  if (typeof values['encryption-key-file'] !== 'string') return {};
  const { encryptedDataConverter } = require('../codec/encrypted-data-converter') as typeof import('../codec/encrypted-data-converter');
  return { dataConverter: encryptedDataConverter(encryptionKeysFromFlags(values)!) };
}
