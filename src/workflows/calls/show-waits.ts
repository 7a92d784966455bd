import { workflowInfo } from '@temporalio/workflow';
import type { RunStatus } from '../../common/run';
import type { RunState } from '../state';
import { setStatus, setStep } from '../effects';
import { waitingCallDetails } from './waiting-details';
import { ownPending, subAgentRecords, waitsInSubAgents } from './views';

const WAITING_STATUSES: ReadonlySet<RunStatus> = new Set(['running', 'awaiting_approval', 'awaiting_external']);

/** The Web UI's current details while the run's own calls wait: each with the commands that answer it. */
export function showOwnWaits(state: RunState): void {
  const own = ownPending(state);
  const workflowId = workflowInfo().workflowId;
  const approvals = own.filter((call) => call.kind === 'approval');
  if (approvals.length > 0) {
    setStep(state, `waiting for approval of ${approvals.length} tool call(s)`, approvals.map((call) => waitingCallDetails(call, workflowId, false)).join('\n\n'));
    return;
  }
  const external = own.find((call) => call.kind === 'external');
  if (external && state.status === 'awaiting_external') {
    setStep(state, `waiting for the external result of \`${external.tool}\` (${external.callId})`, waitingCallDetails(external, workflowId, false));
  }
}

/** Status and Web UI details follow what the sub-agents wait for, while the run has no waiting call of its own. */
export function showSubAgentWaits(state: RunState): void {
  if (ownPending(state).length > 0 || !WAITING_STATUSES.has(state.status)) return;
  const waiting = waitsInSubAgents(state);
  if (waiting.length === 0) {
    if (state.status !== 'running') {
      setStatus(state, 'running');
      setStep(state, `running sub-agent(s): ${subAgentRecords(state).map((record) => record.phase.workflowId).join(', ')}`);
    }
    return;
  }
  setStatus(state, waiting.some((call) => call.kind === 'approval') ? 'awaiting_approval' : 'awaiting_external');
  const lines = waiting.map((call) => waitingCallDetails(call, call.workflowId!, true));
  setStep(state, `waiting for ${waiting.length} call(s) in sub-agents`, lines.join('\n\n'));
}
