import { ApplicationFailure, type TemporalFailure } from '@temporalio/workflow';
import type { TokenUsage } from '../../common/messages';

export interface Spending {
  usage: TokenUsage;
  cost?: number;
}

/** A failing sub-agent run still spent tokens: its failure carries them (as details) for the parent's roll-up. */
export function withSpending(failure: TemporalFailure, spending: Spending): TemporalFailure {
  if (!(failure instanceof ApplicationFailure) || (failure.details?.length ?? 0) > 0) return failure;
  return ApplicationFailure.create({
    message: failure.message,
    type: failure.type ?? undefined,
    nonRetryable: failure.nonRetryable ?? undefined,
    details: [spending],
    ...(failure.cause ? { cause: failure.cause } : {}),
  });
}

/** The spending a failed sub-agent's failure carries, if it is there and well-formed. */
export function spendingOf(failure: unknown): Spending | undefined {
  const details = failure instanceof ApplicationFailure ? failure.details : undefined;
  const spending = details?.[0] as Partial<Spending> | undefined;
  const usage = spending?.usage;
  if (!usage || typeof usage.totalTokens !== 'number' || typeof usage.promptTokens !== 'number' || typeof usage.completionTokens !== 'number') return undefined;
  return { usage, ...(typeof spending.cost === 'number' ? { cost: spending.cost } : {}) };
}
