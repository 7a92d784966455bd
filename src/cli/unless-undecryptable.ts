import { isPayloadDecryptionError } from '../codec/payload-decryption-error';

/**
 * For a state query whose failure means "no answer yet" (no worker polls): undefined, except when
 * the answer came but cannot be decrypted here. That is rethrown, so the command says which key
 * is missing instead of waiting for a worker that already answered.
 */
export function unlessUndecryptable(error: unknown): undefined {
  if (isPayloadDecryptionError(error)) throw error;
  return undefined;
}
