import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import type { RunStatus } from '../../common/run';
import { AGENT_NAME, AGENT_STATUS, AGENT_TOTAL_TOKENS } from '../../common/search-attributes';
import type { Writing } from '../state';

/**
 * Runs started since this patch write search attributes only when they mean something: the status
 * on each transition (with the tokens so far), the tokens at most every TOKENS_EVERY iterations in
 * between. Each upsert is a command and a visibility write; runs recorded before keep their old
 * upserts on replay.
 */
export const SPARSE_SEARCH_ATTRIBUTES_PATCH = 'sparse-search-attributes';
export const TOKENS_EVERY = 10;

/** Status changes are mirrored into the `AgentStatus` search attribute so the UI can filter runs. */
/** `also`: more attributes written in the same upsert (a conversation's turn count). */
export function setStatus(state: Writing<'progress'>, status: RunStatus, also: readonly SearchAttributeUpdatePair[] = []): void {
  if (state.status === status) return;
  state.status = status;
  upsertSearchAttributes([
    { key: AGENT_STATUS, value: status },
    ...(state.sparseSearchAttributes ? [{ key: AGENT_TOTAL_TOKENS, value: state.usage.totalTokens }] : []),
    ...also,
  ]);
}

export function publishUsage(state: Writing<'progress'>): void {
  if (state.sparseSearchAttributes && state.iterations % TOKENS_EVERY !== 0) return;
  upsertSearchAttributes([{ key: AGENT_TOTAL_TOKENS, value: state.usage.totalTokens }]);
}

/** The agent's name and status, unless the client already set them when it started the run. */
export function announceAgent(state: Writing<'progress'>): void {
  const current = workflowInfo().typedSearchAttributes;
  const known = current.get(AGENT_NAME) === state.agent && current.get(AGENT_STATUS) === state.status;
  if (state.sparseSearchAttributes && known) return;
  upsertSearchAttributes([
    { key: AGENT_NAME, value: state.agent },
    { key: AGENT_STATUS, value: state.status },
  ]);
}

/** The "current details" shown on the run's page in the Web UI (markdown). */
export function setStep(state: Writing<'progress'>, step: string, details?: string): void {
  state.currentStep = step;
  const lines = [`**${state.agent}** · ${state.status} · iteration ${state.iterations}/${state.maxIters}`, '', step];
  if (details) lines.push('', details);
  setCurrentDetails(lines.join('\n'));
}

/** A run that failed before it was described (it has no state yet): its agent and status, for the Web UI's filters. */
export function announceFailedStart(agent: string): void {
  upsertSearchAttributes([
    { key: AGENT_NAME, value: agent },
    { key: AGENT_STATUS, value: 'failed' },
  ]);
}
