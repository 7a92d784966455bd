/** Encryption keys that cannot be used: a wrong length, bad base64, an unknown current id, an unreadable file. Never holds key material. */
export class EncryptionKeyError extends Error {
  override readonly name = 'EncryptionKeyError';
}
