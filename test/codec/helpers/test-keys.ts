import { randomBytes } from 'node:crypto';
import type { EncryptionKeySet } from '../../../src/codec/encryption-keys';

/** A fresh AES-256 key as base64, the way docs/encryption.md says to make one. */
export function newKey(): string {
  return randomBytes(32).toString('base64');
}

/** A key set of fresh keys, the first id current. */
export function keySet(...ids: string[]): EncryptionKeySet {
  return { current: ids[0]!, keys: Object.fromEntries(ids.map((id) => [id, newKey()])) };
}

/** The AGENT_ENCRYPTION_KEYS text of a key set, the current key first. */
export function keysVar(keys: EncryptionKeySet): string {
  const ids = [keys.current, ...Object.keys(keys.keys).filter((id) => id !== keys.current)];
  return ids.map((id) => `${id}:${keys.keys[id] as string}`).join(',');
}

/** Sets environment variables for the duration of `body` (createWorker and AgentClient.connect read them when called). */
export async function withEnv<T>(vars: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(vars);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}
