import type { ConnectFailureKind } from './classify-connect-error';

/** Connecting to Temporal failed; the message names the address, the cause and what to change. */
export class TemporalConnectionError extends Error {
  override readonly name = 'TemporalConnectionError';

  constructor(
    message: string,
    readonly address: string,
    readonly kind: ConnectFailureKind,
  ) {
    super(message);
  }
}
