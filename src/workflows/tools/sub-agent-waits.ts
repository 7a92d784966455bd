import { CancellationScope, condition, getExternalWorkflowHandle, log, workflowInfo } from '@temporalio/workflow';
import { approveSignal, denySignal, submitToolResultSignal, subAgentWaitingSignal } from '../../common/definitions';
import type { PendingCall } from '../../common/run';
import { allPending } from '../calls';
import type { Reading } from '../state';

/**
 * Approvals bubble up: a sub-agent run reports to its parent whatever it and its own sub-agents
 * wait for, the parent shows those calls as its own (state, status, events, Web UI) and passes
 * answers sent to it down to the run that holds the call.
 */

type Answer = { signal: 'approve' | 'deny' | 'submitToolResult'; request: { callId: string } & Record<string, unknown> };

/** A signal answering a sub-agent's call goes on to the run that holds it; its own checks apply there. */
export async function forwardToSubAgent(holder: PendingCall, answer: Answer): Promise<void> {
  const handle = getExternalWorkflowHandle(holder.workflowId!);
  const definition = answer.signal === 'approve' ? approveSignal : answer.signal === 'deny' ? denySignal : submitToolResultSignal;
  await handle.signal(definition as typeof approveSignal, answer.request as never);
}

/**
 * In a sub-agent run: on every change of what it (or its sub-agents) waits for, tell the parent
 * (without the tools' schemas: a form reads them from the run that holds the call). Started only
 * in runs with a parent, so top-level runs' histories are untouched.
 */
export function reportWaitsToParent(state: Reading): void {
  const parent = state.parent;
  if (!parent) return;
  const self = workflowInfo().workflowId;
  const key = () => allPending(state).map((call) => `${call.workflowId ?? self}/${call.callId}`).join(',');
  let reported = '';
  // Outside the run's cancellation: a cancelled run still reports that nothing waits any more.
  void CancellationScope.nonCancellable(async () => {
    for (;;) {
      await condition(() => key() !== reported);
      reported = key();
      // `budget` stays home: parents of 0.7.0 refuse a report with it, and know the call by its tool's name (asksForBudget).
      const pending = allPending(state).map(({ schema: _schema, budget: _budget, ...call }) => ({ ...call, workflowId: call.workflowId ?? self, agent: call.agent ?? state.agent }));
      try {
        await getExternalWorkflowHandle(parent.workflowId).signal(subAgentWaitingSignal, { workflowId: self, agent: state.agent, pending });
      } catch (error) {
        log.warn('Could not tell the parent run what this run waits for', { parent: parent.workflowId, error: (error as Error).message });
      }
    }
  });
}
