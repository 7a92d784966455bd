import { ApplicationFailure } from '@temporalio/workflow';
import type { DecideRequest, SubmitToolResultRequest } from '../../common/definitions';
import type { ApprovalDecision, SubmittedResult } from '../../common/run';
import type { WaitKind } from '../../common/tool-call-record';
import { truncateText } from '../../common/truncate-text';
import { activities, nowIso } from '../platform';
import type { Writing } from '../state';
import { applyChange } from './apply-change';
import { answeredBefore, recordForAnswer, recordOf } from './book';
import { decide } from './approval';
import { submit } from './external';
import { isBudgetCall } from './budget-call';
import { allowanceSchema } from '../../common/budget';
import { answerRulesProblem, type AnswerClaims } from './answer-rules';

/** Answers from outside — a person's decision, a submitted result — taken by one set of rules for both kinds. */

const WORDS = {
  approval: {
    waitsFor: 'approval',
    answered: (callId: string) => `tool call '${callId}' was already decided`,
    otherWait: (callId: string) => `tool call '${callId}' waits for an external result, not an approval: submit its result instead`,
  },
  external: {
    waitsFor: 'an external result',
    answered: (callId: string) => `a result for tool call '${callId}' was already submitted`,
    otherWait: (callId: string) => `tool call '${callId}' waits for approval, not an external result: approve or deny it instead`,
  },
} as const;

const WAITING_PHASE = { approval: 'awaiting_approval', external: 'awaiting_external' } as const;

/** No record of the call in this batch, and no result of it before: an answer for it arrived early. */
export function isUnseen(state: Writing<'calls'>, callId: string): boolean {
  const record = recordOf(state, callId);
  return record ? record.phase.name === 'unseen' : !answeredBefore(state, callId);
}

/**
 * Why an answer of this kind for `callId` cannot be taken, or undefined when it can. Signals
 * (`early`), which cannot answer back, may answer a call that is still being checked, running (a
 * tool may still suspend for its result) or not seen yet: the answer is kept until the call waits
 * for it. Updates answer only a call that waits for that answer now.
 */
export function answerProblem(state: Writing<'calls'>, kind: WaitKind, callId: string, early = false): string | undefined {
  const words = WORDS[kind];
  const record = recordOf(state, callId);
  const notWaiting = `no tool call '${callId}' is waiting for ${words.waitsFor}`;
  if (!early && isUnseen(state, callId)) return notWaiting;
  const held = kind === 'approval' ? record?.answer : record?.submission;
  if (held || record?.phase.name === 'settled' || (!record && answeredBefore(state, callId))) return words.answered(callId);
  const phase = record?.phase.name;
  if (phase === WAITING_PHASE[kind]) return undefined;
  if (phase === WAITING_PHASE[kind === 'approval' ? 'external' : 'approval']) return words.otherWait(callId);
  if (phase === 'checking') return early ? undefined : `tool call '${callId}' is still being checked; it is not waiting for ${words.waitsFor} (yet)`;
  if (phase === 'queued' || phase === 'running' || phase === 'in_sub_agent') {
    if (kind === 'approval') return record!.askedAt !== undefined ? words.answered(callId) : `tool call '${callId}' needs no approval: the rules already decided it`;
    return early ? undefined : `tool call '${callId}' is running on a worker and has not asked for an external result`;
  }
  return early ? undefined : notWaiting;
}

function refuseIfProblem(state: Writing<'calls'>, kind: WaitKind, callId: string, early: boolean): void {
  const problem = answerProblem(state, kind, callId, early);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.UnknownCall');
}

/**
 * A person's decision. Edited input is checked against the tool's schema by the worker before it
 * counts. From a signal (`early`), a decision for a call the run has not seen yet is kept until
 * the call asks.
 */
export async function recordDecision(state: Writing<'calls'>, request: DecideRequest, early = false): Promise<ApprovalDecision> {
  refuseByRules(state, request.callId, request);
  let input: unknown = request.input;
  if (early && input !== undefined && isUnseen(state, request.callId)) {
    throw ApplicationFailure.nonRetryable('edited input needs the call to be known first', 'Agent.UnknownCall');
  }
  if (request.approved && input !== undefined && isBudgetCall(recordOf(state, request.callId))) {
    input = allowedAmounts(input);
  } else if (request.approved && input !== undefined) {
    const tool = recordOf(state, request.callId)?.tool ?? '';
    const checked = await activities.validateEditedInput.executeWithOptions(
      // On a worker that serves the agent: one that does not leaves it to another, within the minute.
      { summary: `validate edited input of ${tool}`, startToCloseTimeout: '30s', scheduleToCloseTimeout: '1 minute', retry: { maximumInterval: '5s' } },
      [{ agent: state.agent, tool, input }],
    );
    if (!checked.ok) {
      throw ApplicationFailure.nonRetryable(`Edited input rejected: ${checked.message}`, 'Agent.InvalidEditedInput');
    }
    input = checked.input;
  }
  // Checked again: another answer (or a delegation) may have come while the input was being validated.
  refuseIfProblem(state, 'approval', request.callId, early);
  refuseByRules(state, request.callId, request);
  const decision: ApprovalDecision = {
    callId: request.callId,
    approved: request.approved,
    decidedAt: nowIso(),
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(request.remember ? { remember: request.remember } : {}),
    ...(request.answeredBy !== undefined ? { answeredBy: request.answeredBy } : {}),
  };
  const { record, change } = recordForAnswer(state, request.callId);
  applyChange(state, change);
  applyChange(state, decide(record, decision));
  return decision;
}

/** Refuses an answer the run's rules do not take (see answer-rules.ts): it changes nothing. */
export function refuseByRules(state: Writing<'calls'>, callId: string, claims: AnswerClaims): void {
  const problem = answerRulesProblem(state, callId, claims);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.AnswerRefused');
}

/**
 * A signal's answer the run's rules do not take: recorded as `call_answer_refused` (a signal
 * cannot answer back), and true, so the answer is not applied.
 */
export function refusedSignalAnswer(state: Writing<'calls'>, handler: string, callId: string, claims: AnswerClaims): boolean {
  const problem = answerRulesProblem(state, callId, claims);
  if (!problem) return false;
  applyChange(state, {
    events: [{ type: 'call_answer_refused', callId, handler, reason: problem, ...(claims.answeredBy !== undefined ? { answeredBy: claims.answeredBy } : {}) }],
  });
  return true;
}

/** The amounts a person allows on a budget's call, checked here: they are the run's own, not a tool's input. */
function allowedAmounts(input: unknown): unknown {
  const parsed = allowanceSchema().safeParse(input);
  if (parsed.success) return parsed.data;
  throw ApplicationFailure.nonRetryable(`Edited input rejected: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`, 'Agent.InvalidEditedInput');
}

/**
 * A submitted result, cut like any tool result so it never outgrows what the model is sent.
 * Synchronous, so the update that carries it completes at the same point of the workflow task as
 * in runs recorded before.
 */
export function recordSubmission(state: Writing<'calls'>, request: SubmitToolResultRequest, early = false): SubmittedResult {
  refuseIfProblem(state, 'external', request.callId, early);
  const submission: SubmittedResult = {
    callId: request.callId,
    output: truncateText(request.output, state.descriptor.maxResultChars),
    submittedAt: nowIso(),
    ...(request.isError ? { isError: true } : {}),
    ...(request.answeredBy !== undefined ? { answeredBy: request.answeredBy } : {}),
  };
  const { record, change } = recordForAnswer(state, request.callId);
  applyChange(state, change);
  applyChange(state, submit(record, submission));
  return submission;
}
