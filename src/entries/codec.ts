// durable-agent/codec: payload encryption and the codec server for the Web UI.
export { createEncryptionCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../codec/encryption-codec';
export { encryptedDataConverter } from '../codec/encrypted-data-converter';
export type { EncryptionKeySet } from '../codec/encryption-keys';
export { loadEncryptionKeys, readEncryptionKeyFile } from '../codec/load-encryption-keys';
export { EncryptionKeyError } from '../codec/encryption-key-error';
export { PayloadDecryptionError } from '../codec/payload-decryption-error';
export { startCodecServer, type CodecServer, type CodecServerOptions } from '../codec/codec-server';
