import { ApplicationFailure, log, setHandler } from '@temporalio/workflow';
import {
  approveAllSignal,
  approveSignal,
  conversationQuery,
  decideUpdate,
  denySignal,
  eventsQuery,
  setGroupsSignal,
  stateQuery,
  submitToolResultSignal,
  submitToolResultUpdate,
  type DecideRequest,
  type SubmitToolResultRequest,
} from '../common/definitions';
import type { ApprovalDecision, SubmittedResult } from '../common/run';
import { activities } from './activities-proxy';
import { nowIso } from './clock';
import { approvalProblem, isUnseen, pendingOfKind, submissionProblem, trimEarly } from './decisions';
import { changeGroups } from './equip-groups';
import { eventsAfter } from './event-log';
import { snapshotState, type RunState } from './run-state';

function toolOfCall(state: RunState, callId: string): string | undefined {
  return state.pending.find((p) => p.callId === callId)?.tool ?? state.currentCalls.find((c) => c.id === callId)?.name;
}

/**
 * Edited input is checked against the tool's schema by the worker before it counts. From a signal
 * (`early`), a decision for a call the run has not seen yet is kept until the call asks.
 */
async function recordDecision(state: RunState, request: DecideRequest, early = false): Promise<ApprovalDecision> {
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
  const problem = approvalProblem(state, request.callId, early);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.UnknownCall');
  if (early && isUnseen(state, request.callId)) log.info('Keeping a decision for a call not seen yet', { callId: request.callId });
  const decision: ApprovalDecision = {
    callId: request.callId,
    approved: request.approved,
    decidedAt: nowIso(),
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(request.remember ? { remember: request.remember } : {}),
  };
  state.approvals.push(decision);
  trimEarly(state, state.approvals);
  return decision;
}

/** Signals cannot answer back, so a decision they cannot take is logged and ignored. */
async function decideFromSignal(state: RunState, request: DecideRequest): Promise<void> {
  try {
    await recordDecision(state, request, true);
  } catch (error) {
    log.warn('Ignored approval signal', { callId: request?.callId, reason: (error as Error).message });
  }
}

function recordSubmission(state: RunState, request: SubmitToolResultRequest, early = false): SubmittedResult {
  const problem = submissionProblem(state, request.callId, early);
  if (problem) throw ApplicationFailure.nonRetryable(problem, 'Agent.UnknownCall');
  if (typeof request.output !== 'string') throw ApplicationFailure.nonRetryable('output must be a string', 'Agent.InvalidSubmission');
  const submission: SubmittedResult = {
    callId: request.callId,
    output: request.output,
    submittedAt: nowIso(),
    ...(request.isError ? { isError: true } : {}),
  };
  state.submissions.push(submission);
  trimEarly(state, state.submissions);
  return submission;
}

export function installHandlers(state: RunState): void {
  setHandler(stateQuery, () => snapshotState(state));
  setHandler(eventsQuery, (afterSeq?: number) => eventsAfter(state, afterSeq ?? 0));
  setHandler(conversationQuery, (count: number) => state.messages.slice(0, count));

  setHandler(approveSignal, (req) =>
    decideFromSignal(state, { callId: req?.callId, approved: true, input: req?.input, remember: req?.remember }),
  );
  setHandler(denySignal, (req) => decideFromSignal(state, { callId: req?.callId, approved: false, reason: req?.reason }));
  setHandler(approveAllSignal, async (req) => {
    for (const pending of pendingOfKind(state, 'approval')) {
      await decideFromSignal(state, { callId: pending.callId, approved: true, remember: req?.remember });
    }
  });
  setHandler(decideUpdate, (req) => recordDecision(state, req), {
    validator: (req) => {
      const problem = approvalProblem(state, req?.callId);
      if (problem) throw new Error(problem);
      if (typeof req.approved !== 'boolean') throw new Error('approved must be true or false');
    },
  });

  setHandler(submitToolResultSignal, (req) => {
    try {
      recordSubmission(state, req, true);
    } catch (error) {
      log.warn('Ignored submitToolResult signal', { callId: req?.callId, reason: (error as Error).message });
    }
  });
  setHandler(submitToolResultUpdate, (req) => recordSubmission(state, req), {
    validator: (req) => {
      const problem = submissionProblem(state, req?.callId);
      if (problem) throw new Error(problem);
      if (typeof req.output !== 'string') throw new Error('output must be a string');
    },
  });

  setHandler(setGroupsSignal, (req) => {
    const { active, unknown } = changeGroups(state.descriptor, state.activeGroups, req ?? {});
    if (unknown.length > 0) log.warn('setGroups named unknown groups', { unknown });
    state.activeGroups = active;
  });
}
