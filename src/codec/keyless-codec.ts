import type { PayloadCodec } from '@temporalio/common';
import { isEncryptedPayload, payloadKeyId } from './encryption-codec';
import { ENCRYPTION_KEY_FILE_VAR, ENCRYPTION_KEYS_VAR } from './load-encryption-keys';
import { PayloadDecryptionError } from './payload-decryption-error';

/**
 * The codec of a worker or client without keys: payloads pass unchanged, but an encrypted one
 * fails with an error naming its key, instead of Temporal's "Unknown encoding" or ciphertext
 * passed on as data.
 */
export const keylessCodec: PayloadCodec = {
  async encode(payloads) {
    return payloads;
  },
  async decode(payloads) {
    const encrypted = payloads.find(isEncryptedPayload);
    if (encrypted) {
      const keyId = payloadKeyId(encrypted);
      throw new PayloadDecryptionError(
        `Cannot read a payload encrypted with key '${keyId ?? '(none named)'}': no encryption keys are configured. ` +
          `Set ${ENCRYPTION_KEY_FILE_VAR} or ${ENCRYPTION_KEYS_VAR} (CLI: --encryption-key-file PATH).`,
        keyId,
      );
    }
    return payloads;
  },
};
