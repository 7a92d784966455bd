import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { resolveEncryptionKeys, type EncryptionKeySet, type ResolvedEncryptionKeys } from './encryption-keys';
import { ENCRYPTION_KEY_FILE_VAR, ENCRYPTION_KEYS_VAR } from './load-encryption-keys';
import { PayloadDecryptionError } from './payload-decryption-error';

/** Temporal's convention for the encoding of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function bytes(view: Uint8Array): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

function metadataText(payload: Payload, key: string): string | undefined {
  const value = payload.metadata?.[key];
  return value ? bytes(value).toString('utf8') : undefined;
}

/** True for a payload this codec (or another AES codec following Temporal's convention) encrypted. */
export function isEncryptedPayload(payload: Payload): boolean {
  return metadataText(payload, METADATA_ENCODING_KEY) === ENCRYPTED_ENCODING;
}

/** The id of the key an encrypted payload names; undefined for any other payload. */
export function payloadKeyId(payload: Payload): string | undefined {
  return isEncryptedPayload(payload) ? metadataText(payload, KEY_ID_METADATA) : undefined;
}

function encrypt(payload: Payload, keyId: string, key: Buffer): Payload {
  const plaintext = temporal.api.common.v1.Payload.encode(payload).finish();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv);
  const data = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return {
    metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(keyId) },
    data,
  };
}

function decrypt(payload: Payload, keys: ResolvedEncryptionKeys): Payload {
  const keyId = metadataText(payload, KEY_ID_METADATA);
  if (!keyId) throw new PayloadDecryptionError(`Cannot decrypt a payload: it is marked ${ENCRYPTED_ENCODING} but names no ${KEY_ID_METADATA}.`, undefined);
  const key = keys.keys.get(keyId);
  if (!key) {
    throw new PayloadDecryptionError(
      `Cannot decrypt a payload encrypted with key '${keyId}': that key is not configured (known: ${[...keys.keys.keys()].join(', ')}). ` +
        `Add it to ${ENCRYPTION_KEY_FILE_VAR} or ${ENCRYPTION_KEYS_VAR}.`,
      keyId,
    );
  }
  const data = payload.data ? bytes(payload.data) : Buffer.alloc(0);
  if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(`Cannot decrypt a payload encrypted with key '${keyId}': its data is too short.`, keyId);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv(CIPHER, key, data.subarray(0, IV_BYTES));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    plaintext = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new PayloadDecryptionError(
      `Cannot decrypt a payload encrypted with key '${keyId}': authentication failed (the key '${keyId}' configured here is not the one it was encrypted with, or the data was altered).`,
      keyId,
    );
  }
  return temporal.api.common.v1.Payload.decode(plaintext);
}

/**
 * A payload codec encrypting with AES-256-GCM: each payload (metadata and data, protobuf-encoded)
 * becomes the data `IV (12 random bytes) | ciphertext | tag (16 bytes)`, with the metadata
 * `encoding: binary/encrypted` and `encryption-key-id: <id>`. It encrypts with the current key and
 * decrypts with any key of the set; payloads that are not encrypted pass through decode unchanged,
 * so runs recorded before encryption was turned on stay readable.
 */
export function createEncryptionCodec(keySet: EncryptionKeySet): PayloadCodec {
  const keys = resolveEncryptionKeys(keySet, 'createEncryptionCodec');
  const currentKey = keys.keys.get(keys.current)!;
  return {
    async encode(payloads) {
      return payloads.map((payload) => encrypt(payload, keys.current, currentKey));
    },
    async decode(payloads) {
      return payloads.map((payload) => (isEncryptedPayload(payload) ? decrypt(payload, keys) : payload));
    },
  };
}
