import { createDecipheriv } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { createEncryptionCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../src/codec/encryption-codec';
import { keylessCodec } from '../../src/codec/keyless-codec';
import { PayloadDecryptionError } from '../../src/codec/payload-decryption-error';
import { keySet } from './helpers/test-keys';

const json = (value: unknown): Payload => ({
  metadata: { encoding: Buffer.from('json/plain'), messageType: Buffer.from('x.y.Z') },
  data: Buffer.from(JSON.stringify(value)),
});
const meta = (payload: Payload, key: string) => Buffer.from(payload.metadata![key]!).toString();

describe('the AES-256-GCM payload codec', () => {
  const keys = keySet('k1');
  const codec = createEncryptionCodec(keys);

  test('an encoded payload: encoding binary/encrypted, the key id, and IV | ciphertext | tag over the whole protobuf-encoded payload', async () => {
    const original = json({ prompt: 'my card ending 4242' });
    const [encoded] = await codec.encode([original]);
    expect(Object.keys(encoded!.metadata!).sort()).toEqual(['encoding', KEY_ID_METADATA]);
    expect(meta(encoded!, 'encoding')).toBe(ENCRYPTED_ENCODING);
    expect(meta(encoded!, KEY_ID_METADATA)).toBe('k1');
    expect(Buffer.from(encoded!.data!).toString('latin1')).not.toContain('4242');

    // Decrypted by hand, as another SDK or a codec server in another language would.
    const data = Buffer.from(encoded!.data!);
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keys.keys.k1 as string, 'base64'), data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const plaintext = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
    expect(Buffer.from(plaintext)).toEqual(Buffer.from(temporal.api.common.v1.Payload.encode(original).finish()));
  });

  test('a random IV per payload: the same payload never encrypts the same way twice', async () => {
    const encoded = await codec.encode([json('same'), json('same'), json('same')]);
    const ivs = new Set(encoded.map((payload) => Buffer.from(payload.data!).subarray(0, 12).toString('hex')));
    const bodies = new Set(encoded.map((payload) => Buffer.from(payload.data!).toString('hex')));
    expect(ivs.size).toBe(3);
    expect(bodies.size).toBe(3);
  });

  test('decode restores metadata and data exactly; payloads that are not encrypted pass unchanged', async () => {
    const originals = [json({ a: 1 }), { metadata: { encoding: Buffer.from('binary/null') }, data: new Uint8Array() }, json('x'.repeat(100_000))];
    const decoded = await codec.decode(await codec.encode(originals));
    const asText = (p: Payload) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString()])),
      data: Buffer.from(p.data ?? []).toString('base64'),
    });
    expect(decoded.map(asText)).toEqual(originals.map(asText));
    const recordedBeforeEncryption = json({ old: 'run' });
    expect((await codec.decode([recordedBeforeEncryption]))[0]).toBe(recordedBeforeEncryption);
    expect(await codec.encode([])).toEqual([]);
  });

  test('rotation: encrypts with the current key, decrypts with any known key', async () => {
    const k2 = keySet('k2').keys.k2!;
    const oldCodec = createEncryptionCodec({ current: 'k1', keys: { k1: keys.keys.k1! } });
    const rotated = createEncryptionCodec({ current: 'k2', keys: { k2, k1: keys.keys.k1! } });
    const [old] = await oldCodec.encode([json('written under k1')]);
    const [fresh] = await rotated.encode([json('written under k2')]);
    expect(meta(fresh!, KEY_ID_METADATA)).toBe('k2');
    const decoded = await rotated.decode([old!, fresh!]);
    expect(decoded.map((p) => Buffer.from(p.data!).toString())).toEqual(['"written under k1"', '"written under k2"']);
    await expect(oldCodec.decode([fresh!])).rejects.toThrow("Cannot decrypt a payload encrypted with key 'k2': that key is not configured (known: k1).");
  });

  test('never passes ciphertext on: an unknown key, a wrong key, altered or cut data, a missing key id all fail, naming the key', async () => {
    const [encoded] = await codec.encode([json('secret')]);
    const stranger = createEncryptionCodec(keySet('k9'));
    const error = await stranger.decode([encoded!]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadDecryptionError);
    expect(error).toMatchObject({ name: 'PayloadDecryptionError', keyId: 'k1' });
    expect((error as Error).message).toBe(
      "Cannot decrypt a payload encrypted with key 'k1': that key is not configured (known: k9). Add it to AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS.",
    );

    const impostor = createEncryptionCodec(keySet('k1'));
    await expect(impostor.decode([encoded!])).rejects.toThrow(/key 'k1': authentication failed/);
    const altered = Buffer.from(encoded!.data!);
    altered[20] = altered[20]! ^ 1;
    await expect(codec.decode([{ ...encoded!, data: altered }])).rejects.toThrow(/key 'k1': authentication failed/);
    await expect(codec.decode([{ ...encoded!, data: altered.subarray(0, 20) }])).rejects.toThrow("Cannot decrypt a payload encrypted with key 'k1': its data is too short.");
    await expect(codec.decode([{ metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING) }, data: encoded!.data! }])).rejects.toThrow(
      'it is marked binary/encrypted but names no encryption-key-id',
    );
  });

  test('without keys: payloads pass both ways, an encrypted one fails naming its key and where keys are configured', async () => {
    const plain = [json('plain')];
    expect(await keylessCodec.encode(plain)).toBe(plain);
    expect(await keylessCodec.decode(plain)).toBe(plain);
    const encrypted = await codec.encode([json('secret')]);
    await expect(keylessCodec.decode([...plain, ...encrypted])).rejects.toThrow(
      "Cannot read a payload encrypted with key 'k1': no encryption keys are configured. Set AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS (CLI: --encryption-key-file PATH).",
    );
  });
});
