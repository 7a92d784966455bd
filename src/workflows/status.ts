import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus } from '../common/run';
import { AGENT_STATUS, AGENT_TOTAL_TOKENS } from '../common/search-attributes';
import type { RunState } from './run-state';

/** Status changes are mirrored into the `AgentStatus` search attribute so the UI can filter runs. */
export function setStatus(state: RunState, status: RunStatus): void {
  if (state.status === status) return;
  state.status = status;
  upsertSearchAttributes([{ key: AGENT_STATUS, value: status }]);
}

export function publishUsage(state: RunState): void {
  upsertSearchAttributes([{ key: AGENT_TOTAL_TOKENS, value: state.usage.totalTokens }]);
}

/** The "current details" shown on the run's page in the Web UI (markdown). */
export function setStep(state: RunState, step: string, details?: string): void {
  state.currentStep = step;
  const lines = [`**${state.agent}** · ${state.status} · iteration ${state.iterations}/${state.maxIters}`, '', step];
  if (details) lines.push('', details);
  setCurrentDetails(lines.join('\n'));
}
