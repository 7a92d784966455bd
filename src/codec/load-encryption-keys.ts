import { readFileSync } from 'node:fs';
import { EncryptionKeyError } from './encryption-key-error';
import { resolveEncryptionKeys, type EncryptionKeySet } from './encryption-keys';

export const ENCRYPTION_KEY_FILE_VAR = 'AGENT_ENCRYPTION_KEY_FILE';
export const ENCRYPTION_KEYS_VAR = 'AGENT_ENCRYPTION_KEYS';

/** Checked keys, as bytes, in the order given (the current one first). */
function checked(input: unknown, source: string): EncryptionKeySet {
  const { current, keys } = resolveEncryptionKeys(input, source);
  return { current, keys: Object.fromEntries(keys) };
}

/** The key file: `{"current":"k2","keys":{"k2":"<base64 of 32 bytes>","k1":"<base64>"}}`. */
export function readEncryptionKeyFile(path: string): EncryptionKeySet {
  const source = `encryption key file ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new EncryptionKeyError(`${source} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which holds the keys.
    throw new EncryptionKeyError(`${source} is not valid JSON; expected {"current":"ID","keys":{"ID":"<base64 of 32 bytes>"}}`);
  }
  return checked(json, source);
}

/** `ID:BASE64,ID:BASE64`, the first one current. */
export function parseEncryptionKeysText(text: string, source = ENCRYPTION_KEYS_VAR): EncryptionKeySet {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const keys: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    // The entry itself is never quoted: it holds key material.
    if (colon <= 0) throw new EncryptionKeyError(`${source}: entry ${index + 1} is not ID:BASE64 (e.g. k2:<base64 of 32 bytes>,k1:<base64>)`);
    const id = entry.slice(0, colon).trim();
    if (id in keys) throw new EncryptionKeyError(`${source}: key '${id}' is given twice`);
    keys[id] = entry.slice(colon + 1).trim();
  });
  if (entries.length === 0) throw new EncryptionKeyError(`${source}: no keys; expected ID:BASE64[,ID:BASE64…]`);
  return checked({ current: Object.keys(keys)[0], keys }, source);
}

/**
 * The encryption keys the environment configures: the file named by AGENT_ENCRYPTION_KEY_FILE, or
 * AGENT_ENCRYPTION_KEYS (`k2:<base64>,k1:<base64>`, the first current); undefined when neither is
 * set. Keys that cannot be used throw an EncryptionKeyError saying why.
 */
export function loadEncryptionKeys(env: NodeJS.ProcessEnv = process.env): EncryptionKeySet | undefined {
  const file = env[ENCRYPTION_KEY_FILE_VAR]?.trim();
  const text = env[ENCRYPTION_KEYS_VAR]?.trim();
  if (file && text) throw new EncryptionKeyError(`set ${ENCRYPTION_KEY_FILE_VAR} or ${ENCRYPTION_KEYS_VAR}, not both`);
  if (file) return readEncryptionKeyFile(file);
  if (text) return parseEncryptionKeysText(text);
  return undefined;
}
