import type { ScriptedFault } from './scripted-model-types';

/**
 * Counts requests per model and turn so that a turn's faults are served, in order, to its first
 * requests and every later request (a retry) gets the real reply.
 */
export class ScriptedFaultLedger {
  private readonly seen = new Map<string, number>();

  /** Records one more request for this model and turn; returns its 1-based attempt number. */
  nextAttempt(model: string, turnIndex: number): number {
    const key = `${model}\u0000${turnIndex}`;
    const attempt = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, attempt);
    return attempt;
  }

  reset(): void {
    this.seen.clear();
  }
}

/** The fault that the given attempt (1-based) hits, if any. */
export function faultForAttempt(faults: ScriptedFault[] | undefined, attempt: number): ScriptedFault | undefined {
  let remaining = attempt;
  for (const fault of faults ?? []) {
    const times = fault.times ?? 1;
    if (remaining <= times) return fault;
    remaining -= times;
  }
  return undefined;
}
