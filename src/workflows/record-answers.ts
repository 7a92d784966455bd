import { ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import type { DecideRequest, SubmitToolResultRequest } from '../common/definitions';
import type { ApprovalDecision, SubmittedResult } from '../common/run';
import { truncateText } from '../common/truncate-text';
import { activities } from './activities-proxy';
import { markDecided } from './approval-gate';
import { nowIso } from './clock';
import { approvalProblem, isUnseen, submissionProblem, trimEarly } from './decisions';
import { rejectInput } from './reject-input';
import type { RunState } from './run-state';

/** Both answers are parsed at the boundary first; these take only well-formed requests. */

function toolOfCall(state: RunState, callId: string): string | undefined {
  return state.pending.find((p) => p.callId === callId)?.tool ?? state.currentCalls.find((c) => c.id === callId)?.name;
}

function dropStale<T extends { callId: string }>(state: RunState, handler: string, answers: T[]): void {
  for (const stale of trimEarly(state, answers)) {
    rejectInput(state, handler, `more than the kept number of answers for calls not seen yet arrived; the oldest was dropped`, stale.callId);
  }
}

/**
 * Edited input is checked against the tool's schema by the worker before it counts. From a signal
 * (`early`), a decision for a call the run has not seen yet is kept until the call asks.
 */
export async function recordDecision(state: RunState, request: DecideRequest, early = false): Promise<ApprovalDecision> {
  let input = request.input;
  if (early && input !== undefined && isUnseen(state, request.callId)) {
    throw ApplicationFailure.nonRetryable('edited input needs the call to be known first', 'Agent.UnknownCall');
  }
  if (request.approved && input !== undefined) {
    const tool = toolOfCall(state, request.callId) ?? '';
    const checked = await activities.validateEditedInput.executeWithOptions(
      { summary: `validate edited input of ${tool}`, startToCloseTimeout: '30s', retry: { maximumAttempts: 3 } },
      [{ agent: state.agent, tool, input }],
    );
    if (!checked.ok) {
      throw ApplicationFailure.nonRetryable(`Edited input rejected: ${checked.message}`, 'Agent.InvalidEditedInput');
    }
    input = checked.input;
  }
  // Checked again: another answer may have come while the input was being validated.
  const problem = approvalProblem(state, request.callId, early);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.UnknownCall');
  const decision: ApprovalDecision = {
    callId: request.callId,
    approved: request.approved,
    decidedAt: nowIso(),
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(request.remember ? { remember: request.remember } : {}),
  };
  state.approvals.push(decision);
  markDecided(state, decision, workflowInfo().workflowId);
  if (early && isUnseen(state, request.callId)) dropStale(state, 'approve', state.approvals);
  return decision;
}

/** A submitted output is cut like any tool result, so it never outgrows what the model is sent. */
export function recordSubmission(state: RunState, request: SubmitToolResultRequest, early = false): SubmittedResult {
  const problem = submissionProblem(state, request.callId, early);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.UnknownCall');
  const submission: SubmittedResult = {
    callId: request.callId,
    output: truncateText(request.output, state.descriptor.maxResultChars),
    submittedAt: nowIso(),
    ...(request.isError ? { isError: true } : {}),
  };
  state.submissions.push(submission);
  if (early && isUnseen(state, request.callId)) dropStale(state, 'submitToolResult', state.submissions);
  return submission;
}

/**
 * After a batch: an early answer kept for one of its calls that never asked for it (the rules
 * allowed the call, or it did not suspend) is reported instead of lingering unseen.
 */
export function reportUnusedAnswers(state: RunState, callIds: string[]): void {
  for (const decision of state.approvals.filter((a) => callIds.includes(a.callId))) {
    state.approvals.splice(state.approvals.indexOf(decision), 1);
    rejectInput(state, 'approve', `tool call '${decision.callId}' did not wait for approval; the decision was not needed`, decision.callId);
  }
  for (const submission of state.submissions.filter((s) => callIds.includes(s.callId))) {
    state.submissions.splice(state.submissions.indexOf(submission), 1);
    rejectInput(state, 'submitToolResult', `tool call '${submission.callId}' did not wait for an external result; the result was not used`, submission.callId);
  }
}
