import { log, workflowInfo } from '@temporalio/workflow';
import { formatBytes, jsonByteLength } from '../../common/boundary/limits';
import type { AgentRunOptions, CarriedState } from '../../common/run';
import type { RunState } from '../state';

/** Temporal's own suggestion, or the run's configured history bound, whichever comes first. */
export function shouldContinueAsNew(options: AgentRunOptions | undefined): boolean {
  const info = workflowInfo();
  if (info.continueAsNewSuggested) return true;
  const limit = options?.continueAsNewAfterEvents;
  return limit !== undefined && info.historyLength >= limit;
}

/** The most a continue-as-new may carry: its input must stay under Temporal's 2 MiB payload limit. */
export const MAX_CARRIED_BYTES = 1536 * 1024;

/**
 * Whether the state fits in the next run's input. A conversation too large to carry stays in this
 * run, whose history may grow to Temporal's own limit (50 MiB by default), instead of failing the
 * continue-as-new; the warning is logged once per run.
 */
export function carriedFits(state: RunState, carried: CarriedState): boolean {
  const bytes = jsonByteLength(carried);
  if (bytes <= MAX_CARRIED_BYTES) return true;
  if (!state.warnedCarrySize) {
    state.warnedCarrySize = true;
    log.warn('Not continuing as new: the conversation is too large to carry into a new run', {
      carried: formatBytes(bytes),
      limit: formatBytes(MAX_CARRIED_BYTES),
      historyLength: workflowInfo().historyLength,
    });
  }
  return false;
}
