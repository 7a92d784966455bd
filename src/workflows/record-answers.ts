import { ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import type { DecideRequest, SubmitToolResultRequest } from '../common/definitions';
import type { ApprovalDecision, SubmittedResult } from '../common/run';
import { truncateText } from '../common/truncate-text';
import { activities } from './activities-proxy';
import { markDecided } from './approval-gate';
import { nowIso } from './clock';
import { approvalProblem, isUnseen, submissionProblem } from './answer-problems';
import { recordForAnswer, recordOf } from './call-records';
import type { RunState } from './run-state';

/** Both answers are parsed at the boundary first; these take only well-formed requests. */

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
    const tool = recordOf(state, request.callId)?.tool ?? '';
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
    ...(request.answeredBy !== undefined ? { answeredBy: request.answeredBy } : {}),
  };
  const record = recordForAnswer(state, request.callId);
  record.answer = decision;
  if (decision.approved && input !== undefined) record.input = input;
  markDecided(state, decision, workflowInfo().workflowId);
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
    ...(request.answeredBy !== undefined ? { answeredBy: request.answeredBy } : {}),
  };
  recordForAnswer(state, request.callId).submission = submission;
  return submission;
}
