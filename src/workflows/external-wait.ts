import { condition } from '@temporalio/workflow';
import type { ToolCallResult } from '../common/contracts/tool-calls';
import { nowIso } from './clock';
import { recordOf, settleCall } from './call-records';
import { preview, recordEvent } from './event-log';
import type { RunState } from './run-state';
import { setStatus, setStep } from './status';
import { waitingCallDetails } from './waiting-details';
import { notifyWait } from './notify-waits';

/** Announce an external call so the outside can start working on it before its turn comes. */
export function announceExternal(state: RunState, callId: string, tool: string, input: unknown, reason?: string): void {
  const record = recordOf(state, callId);
  if (!record || record.phase.name === 'awaiting_external') return;
  Object.assign(record, { input, phase: { name: 'awaiting_external', ...(reason ? { reason } : {}) }, externalAt: nowIso() });
  recordEvent(state, { type: 'external_requested', callId, tool, input, ...(reason ? { reason } : {}) }, nowIso());
}

/** Wait for `submitToolResult` for this call (or the agent's external timeout). */
export async function awaitExternalResult(state: RunState, callId: string, tool: string, workflowId: string): Promise<ToolCallResult> {
  const record = recordOf(state, callId)!;
  const arrived = () => record.submission !== undefined;
  const waited = !arrived();
  if (waited) {
    notifyWait(state, { event: 'waiting', callId, tool, kind: 'external', input: record.input });
    setStatus(state, 'awaiting_external');
    setStep(state, `waiting for the external result of \`${tool}\` (${callId})`, waitingCallDetails({ callId, tool, kind: 'external', input: record.input }, workflowId, false));
  }
  const timeout = state.descriptor.externalTimeout;
  if (timeout) await condition(arrived, timeout);
  else await condition(arrived);
  const submission = record.submission;
  setStatus(state, 'running');
  const result: ToolCallResult = submission
    ? { content: submission.output, state: submission.isError ? 'error' : 'success' }
    : { content: `Error: No external result for '${tool}' arrived within ${timeout}.`, state: 'error' };
  settleCall(state, callId, result.state);
  if (waited) {
    notifyWait(state, {
      event: 'answered',
      callId,
      tool,
      kind: 'external',
      outcome: submission ? 'submitted' : 'timed_out',
      ...(submission?.answeredBy !== undefined ? { answeredBy: submission.answeredBy } : {}),
    });
  }
  recordEvent(
    state,
    {
      type: 'external_submitted',
      callId,
      tool,
      isError: result.state === 'error',
      preview: preview(result.content),
      ...(submission?.answeredBy !== undefined ? { answeredBy: submission.answeredBy } : {}),
    },
    nowIso(),
  );
  return result;
}
