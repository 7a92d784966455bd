import type { ApprovalDecision, PendingCall, SubmittedResult } from '../common/run';
import type { RunState } from './run-state';

/** How many answers for calls the run has not seen yet it keeps (signals may race the model's reply). */
export const MAX_EARLY_ANSWERS = 50;

/**
 * Where a call stands: answered for good, waiting for a person (`approval`) or an outside
 * result (`external`), being checked by the worker, decided by the rules and running, or not
 * seen at all (an answer that raced the model's reply).
 */
export type CallPhase = 'settled' | 'approval' | 'external' | 'checking' | 'running' | 'unseen';

export function phaseOf(state: RunState, callId: string): CallPhase {
  if (state.settled.includes(callId)) return 'settled';
  const pending = state.pending.find((p) => p.callId === callId);
  if (pending) return pending.kind;
  if (state.checking.includes(callId)) return 'checking';
  if (state.currentCalls.some((call) => call.id === callId)) return 'running';
  return 'unseen';
}

/**
 * Why a decision for `callId` cannot be taken, or undefined when it can. Signals (`early`), which
 * cannot answer back, may decide a call that is still being checked or not seen yet: the answer
 * is kept until the call asks. Updates answer only a call that waits for approval now.
 */
export function approvalProblem(state: RunState, callId: string, early = false): string | undefined {
  const phase = phaseOf(state, callId);
  if (phase === 'unseen' && !early) return `no tool call '${callId}' is waiting for approval`;
  if (phase === 'settled' || state.approvals.some((a) => a.callId === callId)) return `tool call '${callId}' was already decided`;
  switch (phase) {
    case 'approval':
      return undefined;
    case 'external':
      return `tool call '${callId}' waits for an external result, not an approval: submit its result instead`;
    case 'running':
      return `tool call '${callId}' needs no approval: the rules already decided it`;
    case 'checking':
      return early ? undefined : `tool call '${callId}' is still being checked; it is not waiting for approval (yet)`;
    default:
      return early ? undefined : `no tool call '${callId}' is waiting for approval`;
  }
}

export function submissionProblem(state: RunState, callId: string, early = false): string | undefined {
  const phase = phaseOf(state, callId);
  if (phase === 'unseen' && !early) return `no tool call '${callId}' is waiting for an external result`;
  if (phase === 'settled' || state.submissions.some((s) => s.callId === callId)) {
    return `a result for tool call '${callId}' was already submitted`;
  }
  switch (phase) {
    case 'external':
      return undefined;
    case 'approval':
      return `tool call '${callId}' waits for approval, not an external result: approve or deny it instead`;
    case 'running':
      // A running tool may still suspend and ask for its result; a signal's answer is kept for that.
      return early ? undefined : `tool call '${callId}' is running on a worker and has not asked for an external result`;
    case 'checking':
      return early ? undefined : `tool call '${callId}' is still being checked; it is not waiting for an external result (yet)`;
    default:
      return early ? undefined : `no tool call '${callId}' is waiting for an external result`;
  }
}

export function isUnseen(state: RunState, callId: string): boolean {
  return phaseOf(state, callId) === 'unseen';
}

/** Keep the list of early answers bounded: the oldest answers for unseen calls go first. */
export function trimEarly<T extends { callId: string }>(state: RunState, answers: T[]): T[] {
  const early = answers.filter((a) => isUnseen(state, a.callId));
  const dropped = early.slice(0, Math.max(0, early.length - MAX_EARLY_ANSWERS));
  for (const stale of dropped) answers.splice(answers.indexOf(stale), 1);
  return dropped;
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
