import { BUDGET_TOOL } from '../../common/budget';
import type { ToolCall } from '../../common/messages';
import type { ApprovalDecision, CarriedState } from '../../common/run';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { Writing } from '../state';
import type { CallChange } from './change';

/** How many records of answers for calls the run has not seen yet it keeps (signals may race the model's reply). */
export const MAX_EARLY_ANSWERS = 50;

/** The records of the run, as only calls/ may change them. */
function book(state: Writing<'calls'>): ToolCallRecord[] {
  return state.calls as ToolCallRecord[];
}

function setBook(state: Writing<'calls'>, records: ToolCallRecord[]): void {
  (state as { calls: readonly ToolCallRecord[] }).calls = records;
}

export function recordOf(state: Writing<'calls'>, callId: string): ToolCallRecord | undefined {
  return state.calls.find((record) => record.callId === callId);
}

/** A call of an earlier batch (or run): its result is in the conversation. */
export function answeredBefore(state: Writing<'calls'>, callId: string): boolean {
  return state.messages.some((message) => message.role === 'tool' && message.toolCallId === callId);
}

/** The model's calls become the batch's records, each with whatever answer came for it early. */
export function beginBatch(state: Writing<'calls'>, calls: ToolCall[]): ToolCallRecord[] {
  const early = new Map(state.calls.filter((record) => record.phase.name === 'unseen').map((record) => [record.callId, record]));
  const batch = calls.map((call): ToolCallRecord => ({ ...early.get(call.id), callId: call.id, tool: call.name, phase: { name: 'queued' } }));
  setBook(state, [...batch, ...[...early.values()].filter((record) => !calls.some((call) => call.id === record.callId))]);
  return batch;
}

/** The call the run makes itself to ask for more budget, a batch of one, taking over an answer that came for it early. */
export function beginBudgetCall(state: Writing<'calls'>, callId: string): ToolCallRecord {
  const early = state.calls.find((record) => record.callId === callId && record.phase.name === 'unseen');
  const record: ToolCallRecord = { ...early, callId, tool: BUDGET_TOOL, kind: 'budget', phase: { name: 'queued' } };
  setBook(state, [record, ...state.calls.filter((other) => other !== early)]);
  return record;
}

/**
 * After a batch: an early answer kept for one of its calls that never asked for it (the rules
 * allowed the call, or it did not suspend) is reported instead of lingering; the batch's records
 * go (their results are in the conversation), the answers for unseen calls stay.
 */
export function endBatch(state: Writing<'calls'>, batch: readonly ToolCallRecord[]): CallChange {
  const rejected: NonNullable<CallChange['rejected']> = [];
  for (const record of batch) {
    if (record.answer && record.askedAt === undefined) {
      rejected.push({ handler: 'approve', reason: `tool call '${record.callId}' did not wait for approval; the decision was not needed`, callId: record.callId });
    }
    if (record.submission && record.externalAt === undefined) {
      rejected.push({ handler: 'submitToolResult', reason: `tool call '${record.callId}' did not wait for an external result; the result was not used`, callId: record.callId });
    }
  }
  setBook(state, state.calls.filter((record) => !batch.includes(record)));
  return { rejected };
}

/**
 * The record an answer is kept on: the call's own, or a new unseen one (the oldest unseen ones go
 * past the bound, each reported in the change).
 */
export function recordForAnswer(state: Writing<'calls'>, callId: string): { record: ToolCallRecord; change: CallChange } {
  const known = recordOf(state, callId);
  if (known) return { record: known, change: {} };
  const record: ToolCallRecord = { callId, tool: '', phase: { name: 'unseen' } };
  book(state).push(record);
  const unseen = state.calls.filter((r) => r.phase.name === 'unseen');
  const rejected: NonNullable<CallChange['rejected']> = [];
  for (const stale of unseen.slice(0, Math.max(0, unseen.length - MAX_EARLY_ANSWERS))) {
    book(state).splice(state.calls.indexOf(stale), 1);
    const handler = stale.answer ? 'approve' : 'submitToolResult';
    rejected.push({ handler, reason: `more than the kept number of answers for calls not seen yet arrived; the oldest was dropped`, callId: stale.callId });
  }
  return { record, change: { rejected } };
}

/**
 * Runs continued as new before the call record (0.4.0 and earlier) carried early answers as two
 * lists; they become unseen records, one per call.
 */
export function migrateCarriedAnswers(carried: Pick<CarriedState, 'calls' | 'approvals' | 'submissions'> | undefined): ToolCallRecord[] {
  if (!carried) return [];
  if (carried.calls) return carried.calls;
  const records = new Map<string, { callId: string; tool: string; phase: { name: 'unseen' }; answer?: ApprovalDecision; submission?: NonNullable<CarriedState['submissions']>[number] }>();
  const unseen = (callId: string) => records.get(callId) ?? records.set(callId, { callId, tool: '', phase: { name: 'unseen' } }).get(callId)!;
  for (const answer of carried.approvals ?? []) unseen(answer.callId).answer = answer as ApprovalDecision;
  for (const submission of carried.submissions ?? []) unseen(submission.callId).submission = submission;
  return [...records.values()];
}
