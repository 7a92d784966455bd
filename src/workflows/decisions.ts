import type { ApprovalDecision, PendingCall, SubmittedResult } from '../common/run';
import type { RunState } from './run-state';

function isCurrentCall(state: RunState, callId: string): boolean {
  return state.currentCalls.some((call) => call.id === callId);
}

/**
 * Why a decision for `callId` cannot be taken, or undefined when it can. A decision for a call
 * of the reply being handled is kept even before that call starts waiting.
 */
export function approvalProblem(state: RunState, callId: string): string | undefined {
  if (typeof callId !== 'string' || callId === '') return 'callId is required';
  if (state.settled.includes(callId) || state.approvals.some((a) => a.callId === callId)) {
    return `tool call '${callId}' was already decided`;
  }
  if (state.pending.some((p) => p.callId === callId && p.kind === 'approval')) return undefined;
  if (isCurrentCall(state, callId)) return undefined;
  return `no tool call '${callId}' is waiting for approval`;
}

export function submissionProblem(state: RunState, callId: string): string | undefined {
  if (typeof callId !== 'string' || callId === '') return 'callId is required';
  if (state.settled.includes(callId) || state.submissions.some((s) => s.callId === callId)) {
    return `a result for tool call '${callId}' was already submitted`;
  }
  if (state.pending.some((p) => p.callId === callId && p.kind === 'external')) return undefined;
  if (isCurrentCall(state, callId)) return undefined;
  return `no tool call '${callId}' is waiting for an external result`;
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
