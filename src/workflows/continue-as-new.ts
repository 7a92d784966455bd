import { workflowInfo } from '@temporalio/workflow';
import type { AgentRunOptions } from '../common/run';

/** Temporal's own suggestion, or the run's configured history bound, whichever comes first. */
export function shouldContinueAsNew(options: AgentRunOptions | undefined): boolean {
  const info = workflowInfo();
  if (info.continueAsNewSuggested) return true;
  const limit = options?.continueAsNewAfterEvents;
  return limit !== undefined && info.historyLength >= limit;
}
