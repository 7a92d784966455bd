import { condition } from '@temporalio/workflow';
import type { PreparedCall } from '../common/contracts/tool-calls';
import type { ApprovalDecision } from '../common/run';
import { nowIso } from './clock';
import { ownPending, recordOf, settleCall } from './call-records';
import { waitingCallDetails } from './waiting-details';
import { recordEvent } from './event-log';
import type { RunState } from './run-state';
import { setStatus, setStep } from './status';
import { notifyWait } from './notify-waits';
import { permissionDecided } from '../telemetry/permission-decided';
import { countApprovalWait } from '../telemetry/run-metrics';

type AskCall = Extract<PreparedCall, { outcome: 'ask' }>;

export type GateOutcome = { callId: string; decision: ApprovalDecision | 'timed_out' };

/** The Web UI's current details while calls wait: each waiting call with the commands that answer it. */
export function showWaitingApprovals(state: RunState, workflowId: string): void {
  const waiting = ownPending(state).filter((call) => call.kind === 'approval');
  const lines = waiting.map((call) => waitingCallDetails(call, workflowId, false));
  setStep(state, `waiting for approval of ${waiting.length} tool call(s)`, lines.join('\n\n'));
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
  const answeredBy = decision?.answeredBy !== undefined ? { answeredBy: decision.answeredBy } : {};
  recordEvent(state, { type: 'permission_decided', callId: call.callId, tool: call.tool, ...describeDecision(decision, timeout), ...answeredBy }, nowIso());
}

/**
 * A person decided a call that was waiting: from now on it is no longer pending (state, `pending`,
 * the Web UI), though its batch may still wait for the other calls.
 */
export function markDecided(state: RunState, decision: ApprovalDecision, workflowId: string): void {
  const record = recordOf(state, decision.callId);
  if (record?.phase.name !== 'awaiting_approval') return;
  decidedEvent(state, record, decision);
  notifyWait(state, {
    event: 'answered',
    callId: record.callId,
    tool: record.tool,
    kind: 'approval',
    outcome: decision.approved ? 'approved' : 'denied',
    ...(decision.answeredBy !== undefined ? { answeredBy: decision.answeredBy } : {}),
  });
  if (ownPending(state).some((call) => call.kind === 'approval')) showWaitingApprovals(state, workflowId);
}

/**
 * Parks the run until a person decided every ASK of the batch (or the agent's approval timeout
 * passed). Nothing is held on a worker meanwhile: the wait is a condition in history.
 */
export async function awaitApprovals(state: RunState, calls: AskCall[], workflowId: string): Promise<GateOutcome[]> {
  if (calls.length === 0) return [];
  const records = calls.map((call) => recordOf(state, call.callId)!);
  const decidedEarly = new Set(records.filter((record) => record.answer).map((record) => record.callId));
  for (const [index, call] of calls.entries()) {
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
    const record = records[index]!;
    Object.assign(record, { input: record.answer?.input ?? call.input, permission: call.decision, phase: { name: 'awaiting_approval' }, askedAt: nowIso() });
  }
  setStatus(state, 'awaiting_approval');
  showWaitingApprovals(state, workflowId);
  for (const call of calls) {
    if (decidedEarly.has(call.callId)) continue;
    notifyWait(state, { event: 'waiting', callId: call.callId, tool: call.tool, kind: 'approval', input: call.input, reason: call.decision.reason });
  }

  const decided = () => records.every((record) => record.answer);
  const timeout = state.descriptor.approvalTimeout;
  countApprovalWait(state.agent, 1);
  try {
    if (timeout) await condition(decided, timeout);
    else await condition(decided);
  } finally {
    countApprovalWait(state.agent, -1);
  }

  const outcomes = calls.map((call, index): GateOutcome => {
    const record = records[index]!;
    const decision = record.answer;
    if (decision?.approved) record.phase = { name: 'queued' };
    else settleCall(state, call.callId, 'denied');
    // Decided early (no event yet when it came) or not at all (timed out): the event now.
    if (decidedEarly.has(call.callId) || !decision) decidedEvent(state, call, decision, timeout);
    if (!decision) notifyWait(state, { event: 'answered', callId: call.callId, tool: call.tool, kind: 'approval', outcome: 'timed_out' });
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
