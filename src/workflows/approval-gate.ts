import { condition } from '@temporalio/workflow';
import type { PreparedCall } from '../activities/activity-types';
import type { ApprovalDecision } from '../common/run';
import { nowIso } from './clock';
import { pendingOfKind, settle, takeApproval } from './decisions';
import { recordEvent } from './event-log';
import type { RunState } from './run-state';
import { setStatus, setStep } from './status';
import { permissionDecided } from '../telemetry/permission-decided';
import { countApprovalWait } from '../telemetry/run-metrics';

type AskCall = Extract<PreparedCall, { outcome: 'ask' }>;

export type GateOutcome = { callId: string; decision: ApprovalDecision | 'timed_out' };

/** The Web UI's current details while calls wait: each waiting call with the commands that answer it. */
export function showWaitingApprovals(state: RunState, workflowId: string): void {
  const waiting = pendingOfKind(state, 'approval');
  const lines = waiting.map(
    (c) =>
      `- \`${c.tool}\` ${JSON.stringify(c.input)} — ${c.decision?.reason ?? ''}\n` +
      `  approve: \`durable-agent approve ${workflowId} ${c.callId}\`\n` +
      `  deny: \`durable-agent deny ${workflowId} ${c.callId} --reason "..."\`\n` +
      `  Web UI: Send Signal \`approve\` with \`${JSON.stringify({ callId: c.callId })}\` (or \`deny\` with \`${JSON.stringify({ callId: c.callId, reason: '...' })}\`)`,
  );
  setStep(state, `waiting for approval of ${waiting.length} tool call(s)`, lines.join('\n'));
}

function describeDecision(decision: ApprovalDecision | undefined, timeout?: unknown) {
  const approved = decision?.approved ?? false;
  return {
    behavior: approved ? ('allow' as const) : ('deny' as const),
    by: decision ? ('user' as const) : ('timeout' as const),
    reason: decision ? decision.reason ?? (approved ? 'approved' : 'denied') : `approval timed out after ${timeout}`,
  };
}

function decidedEvent(state: RunState, call: { callId: string; tool: string }, decision: ApprovalDecision | undefined, timeout?: unknown): void {
  recordEvent(state, { type: 'permission_decided', callId: call.callId, tool: call.tool, ...describeDecision(decision, timeout) }, nowIso());
}

/**
 * A person decided a call that was waiting: from now on it is no longer pending (state, `pending`,
 * the Web UI), though its batch may still wait for the other calls.
 */
export function markDecided(state: RunState, decision: ApprovalDecision, workflowId: string): void {
  const call = state.pending.find((p) => p.callId === decision.callId && p.kind === 'approval');
  if (!call) return;
  state.pending = state.pending.filter((p) => p !== call);
  decidedEvent(state, call, decision);
  if (pendingOfKind(state, 'approval').length > 0) showWaitingApprovals(state, workflowId);
}

/**
 * Parks the run until a person decided every ASK of the batch (or the agent's approval timeout
 * passed). Nothing is held on a worker meanwhile: the wait is a condition in history.
 */
export async function awaitApprovals(state: RunState, calls: AskCall[], workflowId: string): Promise<GateOutcome[]> {
  if (calls.length === 0) return [];
  const decidedEarly = new Set(calls.filter((c) => state.approvals.some((a) => a.callId === c.callId)).map((c) => c.callId));
  for (const call of calls) {
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
    if (!decidedEarly.has(call.callId)) {
      state.pending.push({ callId: call.callId, tool: call.tool, kind: 'approval', input: call.input, decision: call.decision, since: nowIso() });
    }
  }
  setStatus(state, 'awaiting_approval');
  showWaitingApprovals(state, workflowId);

  const decided = () => calls.every((c) => state.approvals.some((a) => a.callId === c.callId));
  const timeout = state.descriptor.approvalTimeout;
  countApprovalWait(state.agent, 1);
  try {
    if (timeout) await condition(decided, timeout);
    else await condition(decided);
  } finally {
    countApprovalWait(state.agent, -1);
  }

  const outcomes = calls.map((call): GateOutcome => {
    const stillPending = state.pending.some((p) => p.callId === call.callId);
    const decision = takeApproval(state, call.callId);
    settle(state, call.callId);
    if (decidedEarly.has(call.callId) || stillPending) decidedEvent(state, call, decision, timeout);
    // Here rather than where the answer arrives, so the trace event lands on the run's own span.
    const described = describeDecision(decision, timeout);
    permissionDecided(call, described.behavior, described.by, described.reason);
    if (decision?.approved && decision.remember === 'session' && call.decision.suggestedRule) {
      if (!state.sessionRules.includes(call.decision.suggestedRule)) state.sessionRules.push(call.decision.suggestedRule);
    }
    return { callId: call.callId, decision: decision ?? 'timed_out' };
  });
  setStatus(state, 'running');
  return outcomes;
}
