import { condition } from '@temporalio/workflow';
import type { PreparedCall } from '../activities/activity-types';
import type { ApprovalDecision } from '../common/run';
import { nowIso } from './clock';
import { settle, takeApproval } from './decisions';
import { recordEvent } from './event-log';
import type { RunState } from './run-state';
import { setStatus, setStep } from './status';

type AskCall = Extract<PreparedCall, { outcome: 'ask' }>;

export type GateOutcome = { callId: string; decision: ApprovalDecision | 'timed_out' };

function describeWaiting(calls: AskCall[], workflowHint: string): string {
  return calls
    .map((c) => `- \`${c.tool}\` ${JSON.stringify(c.input)} — ${c.decision.reason}\n  approve: \`${workflowHint} ${c.callId}\``)
    .join('\n');
}

/**
 * Parks the run until a person decided every ASK of the batch (or the agent's approval timeout
 * passed). Nothing is held on a worker meanwhile: the wait is a condition in history.
 */
export async function awaitApprovals(state: RunState, calls: AskCall[], workflowId: string): Promise<GateOutcome[]> {
  if (calls.length === 0) return [];
  for (const call of calls) {
    state.pending.push({ callId: call.callId, tool: call.tool, kind: 'approval', input: call.input, decision: call.decision, since: nowIso() });
    recordEvent(
      state,
      {
        type: 'permission_requested',
        callId: call.callId,
        tool: call.tool,
        input: call.input,
        reason: call.decision.reason,
        ...(call.decision.suggestedRule ? { suggestedRule: call.decision.suggestedRule } : {}),
      },
      nowIso(),
    );
  }
  setStatus(state, 'awaiting_approval');
  setStep(state, `waiting for approval of ${calls.length} tool call(s)`, describeWaiting(calls, `durable-agent approve ${workflowId}`));

  const decided = () => calls.every((c) => state.approvals.some((a) => a.callId === c.callId));
  const timeout = state.descriptor.approvalTimeout;
  if (timeout) await condition(decided, timeout);
  else await condition(decided);

  const outcomes = calls.map((call): GateOutcome => {
    const decision = takeApproval(state, call.callId);
    settle(state, call.callId);
    const by = decision ? 'user' : 'timeout';
    const approved = decision?.approved ?? false;
    recordEvent(
      state,
      {
        type: 'permission_decided',
        callId: call.callId,
        tool: call.tool,
        behavior: approved ? 'allow' : 'deny',
        by,
        reason: decision ? decision.reason ?? (approved ? 'approved' : 'denied') : `approval timed out after ${timeout}`,
      },
      nowIso(),
    );
    if (decision?.approved && decision.remember === 'session' && call.decision.suggestedRule) {
      if (!state.sessionRules.includes(call.decision.suggestedRule)) state.sessionRules.push(call.decision.suggestedRule);
    }
    return { callId: call.callId, decision: decision ?? 'timed_out' };
  });
  setStatus(state, 'running');
  return outcomes;
}
