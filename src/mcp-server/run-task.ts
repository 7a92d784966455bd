import type { Task } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRunState, PendingCall } from '../common/run';

/** How often a client should poll a run's task (tasks/get); the server's own waits poll at this pace too. */
export const TASK_POLL_INTERVAL_MS = 1000;

/** What the task of a run says while a call waits: the call, and how to answer it. */
export function waitingMessage(workflowId: string, pending: PendingCall[]): string {
  return pending
    .map((call) => {
      const holder = call.workflowId ?? workflowId;
      const args = JSON.stringify(call.input);
      return call.kind === 'approval'
        ? `waiting for approval: ${call.tool} ${args}${call.decision ? ` (${call.decision.reason})` : ''}; answer with approve_call or deny_call { "runId": "${holder}", "callId": "${call.callId}" }`
        : `waiting for the result of the external tool ${call.tool} ${args}; answer with submit_result { "runId": "${holder}", "callId": "${call.callId}", "output": "..." }`;
    })
    .join('\n');
}

/**
 * A run as an MCP task: the task id is the run's workflow id, its status follows the run's. A run
 * whose cancellation was requested is `cancelled` at once, as `tasks/cancel` must answer, and stays
 * so (a terminal status does not change), even while it stops or if it ended otherwise.
 */
export function taskOfRun(run: {
  workflowId: string;
  temporalStatus: string;
  cancelRequested?: boolean;
  startTime: Date;
  closeTime?: Date;
  state?: AgentRunState;
}): Task {
  const base = {
    taskId: run.workflowId,
    ttl: null,
    createdAt: run.startTime.toISOString(),
    lastUpdatedAt: (run.closeTime ?? new Date()).toISOString(),
    pollInterval: TASK_POLL_INTERVAL_MS,
  };
  if (run.cancelRequested && run.temporalStatus !== 'CANCELLED') {
    const after = run.temporalStatus === 'RUNNING' ? 'the run is stopping' : `the run ended ${run.temporalStatus.toLowerCase()} after that`;
    return { ...base, status: 'cancelled', statusMessage: `cancellation requested; ${after}` };
  }
  switch (run.temporalStatus) {
    case 'RUNNING':
    case 'CONTINUED_AS_NEW': {
      const pending = run.state?.pending ?? [];
      if (pending.length > 0) return { ...base, status: 'input_required', statusMessage: waitingMessage(run.workflowId, pending) };
      return { ...base, status: 'working', ...(run.state ? { statusMessage: run.state.currentStep } : {}) };
    }
    case 'COMPLETED':
      return { ...base, status: 'completed' };
    case 'CANCELLED':
      return { ...base, status: 'cancelled' };
    default:
      return { ...base, status: 'failed', statusMessage: `the run ended ${run.temporalStatus.toLowerCase()}` };
  }
}
