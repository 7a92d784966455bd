import type { ToolCall, ToolResultState } from '../common/messages';
import type { ApprovalDecision, CarriedState, PendingCall } from '../common/run';
import type { ToolCallPhase, ToolCallRecord } from '../common/tool-call-record';
import { rejectInput } from './reject-input';
import type { RunState } from './run-state';

/** How many records of answers for calls the run has not seen yet it keeps (signals may race the model's reply). */
export const MAX_EARLY_ANSWERS = 50;

export function recordOf(state: RunState, callId: string): ToolCallRecord | undefined {
  return state.calls.find((record) => record.callId === callId);
}

/** A call of an earlier batch (or run): its result is in the conversation. */
export function answeredBefore(state: RunState, callId: string): boolean {
  return state.messages.some((message) => message.role === 'tool' && message.toolCallId === callId);
}

export function setPhase(record: ToolCallRecord, phase: ToolCallPhase): void {
  record.phase = phase;
}

/** The model's calls become the batch's records, each with whatever answer came for it early. */
export function beginBatch(state: RunState, calls: ToolCall[]): ToolCallRecord[] {
  const early = new Map(state.calls.filter((record) => record.phase.name === 'unseen').map((record) => [record.callId, record]));
  const batch = calls.map((call): ToolCallRecord => ({ ...early.get(call.id), callId: call.id, tool: call.name, phase: { name: 'queued' } }));
  state.calls = [...batch, ...[...early.values()].filter((record) => !calls.some((call) => call.id === record.callId))];
  return batch;
}

export function settleCall(state: RunState, callId: string, result: ToolResultState): void {
  const record = recordOf(state, callId);
  if (record) record.phase = { name: 'settled', state: result };
}

/**
 * After a batch: an early answer kept for one of its calls that never asked for it (the rules
 * allowed the call, or it did not suspend) is reported instead of lingering; the batch's records
 * go (their results are in the conversation), the answers for unseen calls stay.
 */
export function endBatch(state: RunState, batch: ToolCallRecord[]): void {
  for (const record of batch) {
    if (record.answer && record.askedAt === undefined) {
      rejectInput(state, 'approve', `tool call '${record.callId}' did not wait for approval; the decision was not needed`, record.callId);
    }
    if (record.submission && record.externalAt === undefined) {
      rejectInput(state, 'submitToolResult', `tool call '${record.callId}' did not wait for an external result; the result was not used`, record.callId);
    }
  }
  state.calls = state.calls.filter((record) => !batch.includes(record));
}

/** The record an early answer is kept on: the call's own, or a new unseen one (the oldest unseen ones go past the bound). */
export function recordForAnswer(state: RunState, callId: string): ToolCallRecord {
  const known = recordOf(state, callId);
  if (known) return known;
  const record: ToolCallRecord = { callId, tool: '', phase: { name: 'unseen' } };
  state.calls.push(record);
  const unseen = state.calls.filter((r) => r.phase.name === 'unseen');
  for (const stale of unseen.slice(0, Math.max(0, unseen.length - MAX_EARLY_ANSWERS))) {
    state.calls.splice(state.calls.indexOf(stale), 1);
    const handler = stale.answer ? 'approve' : 'submitToolResult';
    rejectInput(state, handler, `more than the kept number of answers for calls not seen yet arrived; the oldest was dropped`, stale.callId);
  }
  return record;
}

function pendingOf(record: ToolCallRecord): PendingCall | undefined {
  if (record.phase.name === 'awaiting_approval' && !record.answer) {
    return { callId: record.callId, tool: record.tool, kind: 'approval', input: record.input, ...(record.permission ? { decision: record.permission } : {}), since: record.askedAt! };
  }
  if (record.phase.name === 'awaiting_external' && !record.submission) {
    return { callId: record.callId, tool: record.tool, kind: 'external', input: record.input, since: record.externalAt! };
  }
  return undefined;
}

/** The run's own calls that wait for a person or an outside result now. */
export function ownPending(state: RunState): PendingCall[] {
  return state.calls.flatMap((record) => pendingOf(record) ?? []);
}

/** Every call the run waits on: its own, then those its sub-agents (at any depth) wait on. */
export function allPending(state: RunState): PendingCall[] {
  return [...ownPending(state), ...state.calls.flatMap((record) => (record.phase.name === 'in_sub_agent' ? record.phase.waiting : []))];
}

/** The records of the batch as the state query shows them (unseen answers are nobody's call yet). */
export function visibleRecords(state: RunState): ToolCallRecord[] {
  return state.calls.filter((record) => record.phase.name !== 'unseen');
}

/** Answers kept for calls not seen yet, to carry over continue-as-new. */
export function carriedRecords(state: RunState): ToolCallRecord[] {
  return state.calls.filter((record) => record.phase.name === 'unseen');
}

/**
 * Runs continued as new before the call record (0.4.0 and earlier) carried early answers as two
 * lists; they become unseen records, one per call.
 */
export function migrateCarriedAnswers(carried: Pick<CarriedState, 'calls' | 'approvals' | 'submissions'> | undefined): ToolCallRecord[] {
  if (!carried) return [];
  if (carried.calls) return carried.calls;
  const records = new Map<string, ToolCallRecord>();
  const unseen = (callId: string) => records.get(callId) ?? records.set(callId, { callId, tool: '', phase: { name: 'unseen' } }).get(callId)!;
  for (const answer of carried.approvals ?? []) unseen(answer.callId).answer = answer as ApprovalDecision;
  for (const submission of carried.submissions ?? []) unseen(submission.callId).submission = submission;
  return [...records.values()];
}
