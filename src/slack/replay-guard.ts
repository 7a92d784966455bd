/** Slack's window: a request signed longer ago than this (or this far ahead) is refused. */
export const SIGNATURE_WINDOW_S = 5 * 60;
/** At most this many signatures are remembered (a window's worth of clicks of a busy workspace). */
const MAX_REMEMBERED = 50_000;

/**
 * The signatures of the interactions taken in the last five minutes: the same signed request sent
 * again within its window is a replay (Slack does not resend interactions), refused like an old
 * one. Bolt refuses a timestamp older than the window; this adds one too far ahead and the repeat.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  /** Why the request cannot be taken, or undefined (and it is remembered). Call it only for requests whose signature verified. */
  refusal(signature: string, timestampS: number, nowMs = Date.now()): string | undefined {
    const nowS = Math.floor(nowMs / 1000);
    if (timestampS - nowS > SIGNATURE_WINDOW_S) return 'x-slack-request-timestamp is too far in the future';
    for (const [key, expires] of this.seen) {
      if (expires > nowS && this.seen.size < MAX_REMEMBERED) break;
      this.seen.delete(key);
    }
    if (this.seen.has(signature)) return 'this request was already taken (a replay)';
    this.seen.set(signature, timestampS + SIGNATURE_WINDOW_S);
    return undefined;
  }
}
