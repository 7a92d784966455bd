import type { QuotaGrant } from '../model-limits';

/** A model call's place in its model's fleet-wide quota (see common/model-limits.ts). */
export interface QuotaPermit {
  /** The call ran: what it really used (prompt and completion tokens). */
  used(tokens: number): void;
  /** The provider answered 429: no call of the model starts before `retryAfterMs` from now (a default when it did not say). */
  rateLimited(retryAfterMs: number | undefined): void;
}

export interface QuotaWaitOptions {
  signal: AbortSignal;
  /** Told what the call waits for, and its grant (kept in the heartbeat, so a next attempt keeps its place). */
  onWaiting: (text: string, grant: QuotaGrant) => void;
  /** The grant an earlier attempt of this call got and did not reach. */
  held?: QuotaGrant;
  /** The wait may last until then (ms since the epoch); a grant later than that throws QuotaWaitTooLong. */
  until: number;
}

/** The call's turn comes after its attempt may last: the next attempt waits for the rest. */
export class QuotaWaitTooLong extends Error {
  constructor(readonly grant: QuotaGrant) {
    super(`waited for model quota as long as one attempt may last; the call starts in ${Math.ceil((grant.at - Date.now()) / 1000)} s, in the next attempt`);
    this.name = 'QuotaWaitTooLong';
  }
}

/** How the model activity waits for its turn; the worker's implementation asks the model's quota workflow. */
export interface ModelQuotaPort {
  /**
   * Waits until a call of `model` (the worker's default when empty) with about `tokens` tokens may
   * start; undefined at once for a model without limits.
   */
  take(model: string, tokens: number, options: QuotaWaitOptions): Promise<QuotaPermit | undefined>;
}
