import { workflowInfo } from '@temporalio/workflow';
import type { RunStatus } from '../../common/run';
import type { Writing } from '../state';
import type { Change } from '../effects';
import { waitingCallDetails } from './waiting-details';
import { ownPending, subAgentRecords, waitsInSubAgents } from './views';

const WAITING_STATUSES: ReadonlySet<RunStatus> = new Set(['running', 'awaiting_approval', 'awaiting_external']);

/** The Web UI's current details while the run's own calls wait: each with the commands that answer it. */
export function ownWaitsShown(state: Writing<'calls'>): Change {
  const own = ownPending(state);
  const workflowId = workflowInfo().workflowId;
  const approvals = own.filter((call) => call.kind === 'approval');
  if (approvals.length > 0) {
    return { step: { text: `waiting for approval of ${approvals.length} tool call(s)`, details: approvals.map((call) => waitingCallDetails(call, workflowId, false)).join('\n\n') } };
  }
  const external = own.find((call) => call.kind === 'external');
  if (external && state.status === 'awaiting_external') {
    return { step: { text: `waiting for the external result of \`${external.tool}\` (${external.callId})`, details: waitingCallDetails(external, workflowId, false) } };
  }
  return {};
}

/** Status and Web UI details follow what the sub-agents wait for, while the run has no waiting call of its own. */
export function subAgentWaitsShown(state: Writing<'calls'>): Change {
  if (ownPending(state).length > 0 || !WAITING_STATUSES.has(state.status)) return {};
  const waiting = waitsInSubAgents(state);
  if (waiting.length === 0) {
    if (state.status === 'running') return {};
    return { status: 'running', step: { text: `running sub-agent(s): ${subAgentRecords(state).map((record) => record.phase.workflowId).join(', ')}` } };
  }
  const lines = waiting.map((call) => waitingCallDetails(call, call.workflowId!, true));
  return {
    status: waiting.some((call) => call.kind === 'approval') ? 'awaiting_approval' : 'awaiting_external',
    step: { text: `waiting for ${waiting.length} call(s) in sub-agents`, details: lines.join('\n\n') },
  };
}
