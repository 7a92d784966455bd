import { condition } from '@temporalio/workflow';
import type { ToolCallResult } from '../activities/activity-types';
import { nowIso } from './clock';
import { settle, takeSubmission } from './decisions';
import { preview, recordEvent } from './event-log';
import type { RunState } from './run-state';
import { setStatus, setStep } from './status';

/** Announce an external call so the outside can start working on it before its turn comes. */
export function announceExternal(state: RunState, callId: string, tool: string, input: unknown, reason?: string): void {
  if (state.pending.some((p) => p.callId === callId)) return;
  state.pending.push({ callId, tool, kind: 'external', input, since: nowIso() });
  recordEvent(state, { type: 'external_requested', callId, tool, input, ...(reason ? { reason } : {}) }, nowIso());
}

/** Wait for `submitToolResult` for this call (or the agent's external timeout). */
export async function awaitExternalResult(state: RunState, callId: string, tool: string, workflowId: string): Promise<ToolCallResult> {
  const arrived = () => state.submissions.some((s) => s.callId === callId);
  if (!arrived()) {
    setStatus(state, 'awaiting_external');
    setStep(
      state,
      `waiting for the external result of \`${tool}\` (${callId})`,
      `submit: \`durable-agent submit ${workflowId} ${callId} --output TEXT\``,
    );
  }
  const timeout = state.descriptor.externalTimeout;
  if (timeout) await condition(arrived, timeout);
  else await condition(arrived);
  const submission = takeSubmission(state, callId);
  settle(state, callId);
  setStatus(state, 'running');
  const result: ToolCallResult = submission
    ? { content: submission.output, state: submission.isError ? 'error' : 'success' }
    : { content: `Error: No external result for '${tool}' arrived within ${timeout}.`, state: 'error' };
  recordEvent(
    state,
    { type: 'external_submitted', callId, tool, isError: result.state === 'error', preview: preview(result.content) },
    nowIso(),
  );
  return result;
}
