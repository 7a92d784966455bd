/** A payload marked encrypted that cannot be decrypted here; `keyId` is the key it was encrypted with. */
export class PayloadDecryptionError extends Error {
  override readonly name = 'PayloadDecryptionError';

  constructor(
    message: string,
    readonly keyId: string | undefined,
  ) {
    super(message);
  }
}

/** By name, so it is recognised also when the error crossed a module copy or was rethrown by Temporal's client. */
export function isPayloadDecryptionError(error: unknown): error is PayloadDecryptionError {
  return (error as { name?: unknown } | undefined)?.name === 'PayloadDecryptionError';
}
