import { ApplicationFailure } from '@temporalio/workflow';
import type { DelegateRequest, DelegatedCall } from '../../common/definitions';
import type { Writing } from '../state';
import { answerProblem } from './answers';
import { answerRulesOn, answerRulesProblem } from './answer-rules';
import { applyChange } from './apply-change';
import { recordOf } from './book';
import { delegate } from './still-waiting';

/** Why the run does not take this delegation, or undefined: one who may answer the waiting call may hand it on. */
export function delegationProblem(state: Writing<'calls'>, request: DelegateRequest): string | undefined {
  if (!answerRulesOn(state)) return 'this run was started by a worker without delegation (the answer-rules runtime feature): answer the call instead';
  const problem = answerProblem(state, 'approval', request.callId);
  if (problem) return problem;
  if (recordOf(state, request.callId)?.kind === 'budget') return `tool call '${request.callId}' asks for more budget: it is answered, not handed on`;
  return answerRulesProblem(state, request.callId, request);
}

/** Hands the waiting call to `request.to`: recorded, announced, and from now on only they may answer it. */
export function delegateCall(state: Writing<'calls'>, request: DelegateRequest): DelegatedCall {
  const problem = delegationProblem(state, request);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.AnswerRefused');
  const record = recordOf(state, request.callId)!;
  applyChange(state, delegate(record, request.to, request.answeredBy, request.reason));
  return { callId: request.callId, approvers: [...request.to], ...(request.answeredBy !== undefined ? { delegatedBy: request.answeredBy } : {}) };
}
