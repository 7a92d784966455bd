import type { PreparedCall } from '../../common/contracts/tool-calls';
import type { AgentEventBody } from '../../common/events';
import type { ApprovalDecision } from '../../common/run';
import { callAnswerOf, type ToolCallRecord } from '../../common/tool-call-record';
import { nowIso } from '../platform';
import type { Writing } from '../state';
import { recordOf } from './book';
import type { CallChange, NoticeBody } from './change';
import { answeredNotice, waitingNotice } from './notices';
import { move, writable } from './phases';
import { earlierRun } from './repeated-calls';
import { answerRulesOn, approversForTool, currentRulesVersion } from './answer-rules';

/** The approval half of a call's lifecycle: asked, decided by a person (or by nobody in time). */

export type AskCall = Extract<PreparedCall, { outcome: 'ask' }>;

export type GateOutcome = { callId: string; decision: ApprovalDecision | 'timed_out' };

function describeDecision(decision: ApprovalDecision | undefined, timeout?: unknown) {
  const approved = decision?.approved ?? false;
  return {
    behavior: approved ? ('allow' as const) : ('deny' as const),
    by: decision ? ('user' as const) : ('timeout' as const),
    reason: decision ? decision.reason ?? (approved ? 'approved' : 'denied') : `approval timed out after ${timeout}`,
  };
}

/** The call's `permission_decided` event: who decided, and the arguments a person put in place of the model's. */
export function decidedEvent(record: ToolCallRecord, timeout?: unknown): AgentEventBody {
  const decision = record.answer;
  const answer = callAnswerOf(record, 'approval');
  return {
    type: 'permission_decided',
    callId: record.callId,
    tool: record.tool,
    ...describeDecision(decision, timeout),
    ...(answer?.answeredBy !== undefined ? { answeredBy: answer.answeredBy } : {}),
    ...(answer?.editedInput !== undefined ? { input: answer.editedInput } : {}),
  };
}

/** The model's call of this id in the reply being handled (the conversation's last assistant message). */
function callOf(state: Writing<'calls'>, callId: string) {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i]!;
    if (message.role === 'assistant') return message.toolCalls?.find((call) => call.id === callId);
  }
  return undefined;
}

/** The batch's ASKs start waiting for a person (a call answered early waits for nothing, and nobody is told). */
export function askApprovals(state: Writing<'calls'>, asks: readonly AskCall[]): CallChange {
  const events: AgentEventBody[] = [];
  const notices: NoticeBody[] = [];
  for (const ask of asks) {
    const record = recordOf(state, ask.callId)!;
    const early = record.answer !== undefined;
    const call = callOf(state, ask.callId);
    const repeats = call ? earlierRun(state, call)?.repeats : undefined;
    const version = answerRulesOn(state) ? currentRulesVersion(state) : undefined;
    events.push({
      type: 'permission_requested',
      callId: ask.callId,
      tool: ask.tool,
      input: ask.input,
      reason: ask.decision.reason,
      ...(ask.decision.suggestedRule ? { suggestedRule: ask.decision.suggestedRule } : {}),
      ...(repeats ? { repeats: repeats.callId } : {}),
      ...(ask.decision.policy ? { policy: ask.decision.policy } : {}),
      ...(version !== undefined ? { rulesVersion: version } : {}),
    });
    const target = move(record, 'ask', { name: 'awaiting_approval' });
    Object.assign(target, { input: record.answer?.input ?? ask.input, permission: ask.decision, askedAt: nowIso(), ...(repeats ? { repeats } : {}) });
    if (answerRulesOn(state)) {
      const approvers = approversForTool(state, ask.tool);
      Object.assign(target, { rulesVersion: version, ...(approvers ? { approvers: [...approvers] } : {}) });
    }
    if (!early) notices.push(waitingNotice(record, 'approval', ask.input, ask.decision.reason));
  }
  return { events, status: 'awaiting_approval', waitsChanged: true, notices, approvalWaits: 1 };
}

/** A person's decision, kept on the call's record; when the call waits for it, it is answered now. */
export function decide(record: ToolCallRecord, decision: ApprovalDecision): CallChange {
  const target = writable(record);
  target.answer = decision;
  if (decision.approved && decision.input !== undefined) target.input = decision.input;
  if (record.phase.name !== 'awaiting_approval') return {};
  return { events: [decidedEvent(record)], waitsChanged: true, notices: [answeredNotice(record, 'approval', callAnswerOf(record, 'approval')!)] };
}

/**
 * The batch's wait for approvals ended: approved calls wait for their turn, the others are
 * settled as denied. Calls decided before they asked (and calls nobody decided) get their event
 * now; a rule a person allowed for the session joins the run's rules.
 */
export function endApprovalWait(state: Writing<'calls'>, asks: readonly AskCall[], decidedEarly: ReadonlySet<string>): { outcomes: GateOutcome[]; change: CallChange } {
  const timeout = state.descriptor.approvalTimeout;
  const change: Required<Pick<CallChange, 'events' | 'notices' | 'decisions'>> & CallChange = {
    events: [],
    notices: [],
    decisions: [],
    status: 'running',
    waitsChanged: true,
    noticesFirstInOlderRuns: true,
  };
  const outcomes = asks.map((ask): GateOutcome => {
    const record = recordOf(state, ask.callId)!;
    const decision = record.answer;
    if (decision?.approved) move(record, 'approve', { name: 'queued' });
    else move(record, 'refuse', { name: 'settled', state: 'denied' });
    if (decidedEarly.has(ask.callId) || !decision) change.events.push(decidedEvent(record, timeout));
    if (!decision) change.notices.push(answeredNotice(record, 'approval', { outcome: 'timed_out' }));
    change.decisions.push({ callId: ask.callId, tool: ask.tool, ...describeDecision(decision, timeout) });
    if (decision?.approved && decision.remember === 'session' && ask.decision.suggestedRule) {
      if (!state.sessionRules.includes(ask.decision.suggestedRule)) {
        state.sessionRules.push(ask.decision.suggestedRule);
        change.events.push({ type: 'session_rule_added', rule: ask.decision.suggestedRule, callId: ask.callId });
      }
    }
    return { callId: ask.callId, decision: decision ?? 'timed_out' };
  });
  return { outcomes, change };
}
