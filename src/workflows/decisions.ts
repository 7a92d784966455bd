import type { ApprovalDecision, PendingCall, SubmittedResult } from '../common/run';
import type { RunState } from './run-state';

function isCurrentCall(state: RunState, callId: string): boolean {
  return state.currentCalls.some((call) => call.id === callId);
}

/** How many answers for calls the run has not seen yet it keeps (signals may race the model's reply). */
export const MAX_EARLY_ANSWERS = 50;

/**
 * Why a decision for `callId` cannot be taken, or undefined when it can. With `acceptUnseen`
 * (signals, which cannot answer back) a decision for a call the run has not seen yet is kept
 * until that call asks; updates reject it so the caller learns at once.
 */
export function approvalProblem(state: RunState, callId: string, acceptUnseen = false): string | undefined {
  if (typeof callId !== 'string' || callId === '') return 'callId is required';
  const known = isCurrentCall(state, callId) || state.pending.some((p) => p.callId === callId && p.kind === 'approval');
  const unknown = `no tool call '${callId}' is waiting for approval`;
  if (state.settled.includes(callId)) return `tool call '${callId}' was already decided`;
  if (state.approvals.some((a) => a.callId === callId)) return known || acceptUnseen ? `tool call '${callId}' was already decided` : unknown;
  return known || acceptUnseen ? undefined : unknown;
}

export function submissionProblem(state: RunState, callId: string, acceptUnseen = false): string | undefined {
  if (typeof callId !== 'string' || callId === '') return 'callId is required';
  const known = isCurrentCall(state, callId) || state.pending.some((p) => p.callId === callId && p.kind === 'external');
  const unknown = `no tool call '${callId}' is waiting for an external result`;
  const already = `a result for tool call '${callId}' was already submitted`;
  if (state.settled.includes(callId)) return already;
  if (state.submissions.some((s) => s.callId === callId)) return known || acceptUnseen ? already : unknown;
  return known || acceptUnseen ? undefined : unknown;
}

export function isUnseen(state: RunState, callId: string): boolean {
  return !isCurrentCall(state, callId) && !state.pending.some((p) => p.callId === callId);
}

/** Keep the list of early answers bounded: the oldest answers for unseen calls go first. */
export function trimEarly<T extends { callId: string }>(state: RunState, answers: T[]): void {
  const early = answers.filter((a) => isUnseen(state, a.callId));
  for (const stale of early.slice(0, Math.max(0, early.length - MAX_EARLY_ANSWERS))) {
    answers.splice(answers.indexOf(stale), 1);
  }
}

export function takeApproval(state: RunState, callId: string): ApprovalDecision | undefined {
  const index = state.approvals.findIndex((a) => a.callId === callId);
  if (index < 0) return undefined;
  const [decision] = state.approvals.splice(index, 1);
  return decision;
}

export function takeSubmission(state: RunState, callId: string): SubmittedResult | undefined {
  const index = state.submissions.findIndex((s) => s.callId === callId);
  if (index < 0) return undefined;
  const [submission] = state.submissions.splice(index, 1);
  return submission;
}

export function settle(state: RunState, callId: string): void {
  state.pending = state.pending.filter((p) => p.callId !== callId);
  state.settled.push(callId);
}

export function pendingOfKind(state: RunState, kind: PendingCall['kind']): PendingCall[] {
  return state.pending.filter((p) => p.kind === kind);
}
