/** A model call's place in its model's fleet-wide quota (see common/model-limits.ts). */
export interface QuotaPermit {
  /** The call ran: what it really used (prompt and completion tokens). */
  used(tokens: number): void;
  /** The provider answered 429: no call of the model starts before `retryAfterMs` from now (a default when it did not say). */
  rateLimited(retryAfterMs: number | undefined): void;
}

/** How the model activity waits for its turn; the worker's implementation asks the model's quota workflow. */
export interface ModelQuotaPort {
  /**
   * Waits until a call of `model` (the worker's default when empty) with about `tokens` tokens may
   * start, telling `onWaiting` what it waits for; undefined at once for a model without limits.
   */
  take(model: string, tokens: number, options: { signal: AbortSignal; onWaiting: (text: string) => void }): Promise<QuotaPermit | undefined>;
}
