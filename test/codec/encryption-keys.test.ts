import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataConverterFromEnv, describeEncryption, encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { createEncryptionCodec } from '../../src/codec/encryption-codec';
import { EncryptionKeyError } from '../../src/codec/encryption-key-error';
import { loadEncryptionKeys } from '../../src/codec/load-encryption-keys';
import { keylessCodec } from '../../src/codec/keyless-codec';
import { newKey } from './helpers/test-keys';

const HINT = '(make one with `openssl rand -base64 32`)';

/** The error `body` throws, checked to be an EncryptionKeyError that quotes none of `material`. */
function keyError(body: () => unknown, ...material: string[]): string {
  let thrown: unknown;
  try {
    body();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(EncryptionKeyError);
  const message = (thrown as Error).message;
  for (const secret of material) expect(message).not.toContain(secret);
  return message;
}

describe('encryption keys from the environment', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'durable-agent-key-files-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  test('nothing set: no keys, and a converter that passes payloads but refuses encrypted ones', () => {
    expect(loadEncryptionKeys({})).toBeUndefined();
    expect(loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: ' ', AGENT_ENCRYPTION_KEY_FILE: '' })).toBeUndefined();
    expect(dataConverterFromEnv({})).toEqual({ dataConverter: { payloadCodecs: [keylessCodec] }, keys: undefined });
  });

  test('AGENT_ENCRYPTION_KEYS: ID:BASE64 pairs, the first current, spaces and a trailing comma tolerated', () => {
    const [a, b] = [newKey(), newKey()];
    const keys = loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: ` k2:${a} , k1:${b}, ` })!;
    expect(keys.current).toBe('k2');
    expect(Object.keys(keys.keys)).toEqual(['k2', 'k1']);
    expect(Buffer.from(keys.keys.k2 as Uint8Array).toString('base64')).toBe(a);
    expect(describeEncryption(keys)).toBe("payloads are encrypted with key 'k2' (AES-256-GCM); 2 key(s) decrypt: k2, k1");
    expect(describeEncryption(keys)).not.toContain(a);
  });

  test('AGENT_ENCRYPTION_KEY_FILE: {"current","keys"}; the converter encrypts with the current key and encrypts failure messages too', async () => {
    const [a, b] = [newKey(), newKey()];
    const path = file('keys.json', JSON.stringify({ current: 'k1', keys: { k2: a, k1: b } }));
    const { dataConverter, keys } = dataConverterFromEnv({ AGENT_ENCRYPTION_KEY_FILE: path });
    expect(keys).toEqual({ current: 'k1', keys: { k2: Buffer.from(a, 'base64'), k1: Buffer.from(b, 'base64') } });
    expect(dataConverter.failureConverterPath).toMatch(/encrypted-failure-converter\.(ts|js)$/);
    const [encoded] = await dataConverter.payloadCodecs![0]!.encode([{ metadata: {}, data: Buffer.from('x') }]);
    expect(Buffer.from(encoded!.metadata!['encryption-key-id']!).toString()).toBe('k1');
    const { failureConverter } = require(dataConverter.failureConverterPath!) as typeof import('../../src/codec/encrypted-failure-converter');
    expect(failureConverter.options.encodeCommonAttributes).toBe(true);
  });

  test('clear errors that never quote the keys: wrong length, bad base64, unknown current, bad ids, duplicates, malformed entries, bad files', () => {
    const short = Buffer.alloc(16, 1).toString('base64');
    const good = newKey();
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: `k1:${short}` }), short)).toBe(`AGENT_ENCRYPTION_KEYS: keys.k1: 16 bytes; AES-256 needs 32 ${HINT}`);
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: `k1:${good.slice(0, 20)}!!${good.slice(22)}` }), good.slice(0, 20))).toBe(
      `AGENT_ENCRYPTION_KEYS: keys.k1: not valid base64 ${HINT}`,
    );
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: `k1:${good},k1:${good}` }), good)).toBe("AGENT_ENCRYPTION_KEYS: key 'k1' is given twice");
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: `k1:${good},${good}` }), good)).toBe(
      'AGENT_ENCRYPTION_KEYS: entry 2 is not ID:BASE64 (e.g. k2:<base64 of 32 bytes>,k1:<base64>)',
    );
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: `key one:${good}` }), good)).toBe(
      'AGENT_ENCRYPTION_KEYS: keys.<an invalid id>: a key id is 1 to 32 letters, digits, ".", "_" or "-"',
    );
    // Given the wrong way round (BASE64:ID), the key would be the id: it is not quoted either.
    const swapped = good.replace(/=+$/, '');
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEYS: `${swapped}:k1` }), swapped)).toMatch(/^AGENT_ENCRYPTION_KEYS: keys\.<an invalid id>: a key id is/);

    const unknownCurrent = file('unknown-current.json', JSON.stringify({ current: 'k3', keys: { k2: good, k1: newKey() } }));
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEY_FILE: unknownCurrent }), good)).toBe(
      `encryption key file ${unknownCurrent}: current: 'k3' is not one of the keys (k2, k1)`,
    );
    const noKeys = file('no-keys.json', JSON.stringify({ current: 'k1', keys: {} }));
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEY_FILE: noKeys }))).toBe(`encryption key file ${noKeys}: keys: no keys`);
    const wrongShape = file('wrong-shape.json', JSON.stringify({ current: 'k1', key: { k1: good } }));
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEY_FILE: wrongShape }), good)).toMatch(/^encryption key file .*wrong-shape\.json: keys: Required; Unrecognized key\(s\) in object: 'key'$/);
    const broken = file('broken.json', `{"current":"k1","keys":{"k1":"${good}"`);
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEY_FILE: broken }), good, good.slice(0, 8))).toBe(
      `encryption key file ${broken} is not valid JSON; expected {"current":"ID","keys":{"ID":"<base64 of 32 bytes>"}}`,
    );
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEY_FILE: join(dir, 'absent.json') }))).toBe(
      `encryption key file ${join(dir, 'absent.json')} cannot be read (ENOENT)`,
    );
    expect(keyError(() => loadEncryptionKeys({ AGENT_ENCRYPTION_KEY_FILE: unknownCurrent, AGENT_ENCRYPTION_KEYS: `k1:${good}` }))).toBe(
      'set AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS, not both',
    );
  });

  test('in code: createEncryptionCodec and encryptedDataConverter take base64 or bytes, and check them the same way', () => {
    expect(() => createEncryptionCodec({ current: 'k1', keys: { k1: new Uint8Array(32) } })).not.toThrow();
    expect(() => encryptedDataConverter({ current: 'k1', keys: { k1: newKey() } })).not.toThrow();
    expect(keyError(() => createEncryptionCodec({ current: 'k1', keys: { k1: new Uint8Array(31) } }))).toBe(`createEncryptionCodec: keys.k1: 31 bytes; AES-256 needs 32 ${HINT}`);
    expect(keyError(() => createEncryptionCodec({ current: 'k2', keys: { k1: newKey() } }))).toBe("createEncryptionCodec: current: 'k2' is not one of the keys (k1)");
  });
});
