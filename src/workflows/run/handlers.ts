import { ApplicationFailure, setDefaultSignalHandler, setHandler } from '@temporalio/workflow';
import { FailureTypes } from '../../common/failures';
import type { HandlerName, Payload } from '../../common/boundary/payload-schemas';
import { asksForBudget } from '../../common/budget';
import { acceptedRequest, callIdOf, parseInput, validated } from '../input';
import {
  addInputUpdate,
  approveAllSignal,
  approveSignal,
  conversationPageQuery,
  conversationQuery,
  decideUpdate,
  delegateUpdate,
  denySignal,
  eventsQuery,
  setGroupsSignal,
  stateQuery,
  subAgentWaitingSignal,
  workerRefusedSignal,
  submitToolResultSignal,
  type SubAgentWaitingReport,
  submitToolResultUpdate,
} from '../../common/definitions';
import { forwardToSubAgent } from '../tools';
import {
  allPending,
  answerProblem,
  answerRulesProblem,
  delegateCall,
  delegationProblem,
  noteSubAgentWaiting,
  ownPending,
  recordDecision,
  recordSubmission,
  refusedSignalAnswer,
  subAgentHolding,
} from '../calls';
import { changeGroups, noteGroups } from '../toolset';
import { apply, eventsAfter, showRefusalInRun } from '../effects';
import { addInput, conversationPage, inputRefusal } from '../context';
import { HANDLER_DESCRIPTIONS } from './handler-descriptions';
import type { RunState } from '../state';
import { snapshotState } from './state-snapshot';
import type { WaitKind } from '../../common/tool-call-record';

/**
 * Every message from outside is parsed by its schema before use. A signal the run cannot use is
 * rejected with an `input_rejected` event; an update is refused in its validator with the reason;
 * a query answers with an error. No handler lets an error reach the workflow task.
 */

function onSignal<H extends HandlerName>(state: RunState, handler: H, act: (value: Payload<H>) => unknown): (raw: unknown) => Promise<void> {
  return async (raw) => {
    const parsed = parseInput(state, handler, raw);
    if (!parsed.ok) {
      apply(state, { rejected: [{ handler, reason: parsed.reason, callId: callIdOf(raw) }] });
      return;
    }
    try {
      await act(parsed.value);
    } catch (error) {
      apply(state, { rejected: [{ handler, reason: `${handler}: ${(error as Error)?.message ?? String(error)}`, callId: callIdOf(raw) }] });
    }
  };
}

/** A signal that answers a call: passed down to the sub-agent run that holds the call, else applied here. */
function onAnswer<H extends 'approve' | 'deny' | 'submitToolResult'>(state: RunState, handler: H, apply: (value: Payload<H>) => unknown): (raw: unknown) => Promise<void> {
  return onSignal(state, handler, (req) => {
    const holder = subAgentHolding(state, req.callId);
    return holder ? forwardToSubAgent(holder, { signal: handler, request: req }) : apply(req);
  });
}

function queryArgument<H extends HandlerName>(state: RunState, handler: H, raw: unknown): Payload<H> {
  return validated(state, handler, raw);
}

/**
 * An update cannot be passed on (a workflow sends only signals): the sender is told where the call
 * waits, by a failure whose details hold that run's id, which AgentRun follows.
 */
function refuseIfHeldElsewhere(state: RunState, callId: string): void {
  const holder = subAgentHolding(state, callId);
  if (!holder) return;
  throw ApplicationFailure.create({
    message:
      `tool call '${callId}' waits in the sub-agent run '${holder.workflowId}' (agent ${holder.agent}): send the answer to that run ` +
      `(AgentRun and the durable-agent CLI do so when given this run's id)`,
    type: FailureTypes.heldBySubAgent,
    nonRetryable: true,
    details: [holder.workflowId],
  });
}

/** An answering update's validator: a well-formed request for a call of this run that waits for that answer now. */
function answerValidator(state: RunState, handler: 'decide' | 'submitToolResultUpdate', kind: WaitKind): (raw: unknown) => void {
  return (raw) => {
    const request = validated(state, handler, raw);
    refuseIfHeldElsewhere(state, request.callId);
    const problem = answerProblem(state, kind, request.callId) ?? (handler === 'decide' ? answerRulesProblem(state, request.callId, request) : undefined);
    if (problem) throw new Error(problem);
  };
}

export function installHandlers(state: RunState): void {
  setHandler(stateQuery, () => snapshotState(state), { description: HANDLER_DESCRIPTIONS.state });
  setHandler(eventsQuery, (afterSeq?: unknown) => eventsAfter(state, queryArgument(state, 'events', afterSeq)), { description: HANDLER_DESCRIPTIONS.events });
  setHandler(conversationQuery, (count: unknown) => state.messages.slice(0, queryArgument(state, 'conversation', count)), { description: HANDLER_DESCRIPTIONS.internal });
  setHandler(conversationPageQuery, (page: unknown) => conversationPage(state.messages, queryArgument(state, 'conversationPage', page)), { description: HANDLER_DESCRIPTIONS.internal });

  setHandler(
    approveSignal,
    onAnswer(state, 'approve', (req) => refusedSignalAnswer(state, 'approve', req.callId, req) || recordDecision(state, { ...req, approved: true }, true)),
    { description: HANDLER_DESCRIPTIONS.approve },
  );
  setHandler(
    denySignal,
    onAnswer(state, 'deny', (req) => refusedSignalAnswer(state, 'deny', req.callId, req) || recordDecision(state, { ...req, approved: false }, true)),
    { description: HANDLER_DESCRIPTIONS.deny },
  );
  setHandler(
    approveAllSignal,
    onSignal(state, 'approveAll', async (req) => {
      const remember = req.remember ? { remember: req.remember } : {};
      for (const pending of ownPending(state).filter((call) => call.kind === 'approval' && !asksForBudget(call))) {
        if (refusedSignalAnswer(state, 'approveAll', pending.callId, {})) continue;
        await recordDecision(state, { callId: pending.callId, approved: true, ...remember }, true).catch((error: Error) =>
          apply(state, { rejected: [{ handler: 'approveAll', reason: `approveAll: ${error.message}`, callId: pending.callId }] }),
        );
      }
      for (const held of allPending(state).filter((call) => call.workflowId && call.kind === 'approval' && !asksForBudget(call))) {
        await forwardToSubAgent(held, { signal: 'approve', request: { callId: held.callId, ...remember } }).catch((error: Error) =>
          apply(state, { rejected: [{ handler: 'approveAll', reason: `approveAll: ${error.message}`, callId: held.callId }] }),
        );
      }
    }),
    { description: HANDLER_DESCRIPTIONS.approveAll },
  );
  setHandler(
    submitToolResultSignal,
    onAnswer(state, 'submitToolResult', (req) => {
      recordSubmission(state, req, true);
    }),
    { description: HANDLER_DESCRIPTIONS.submitToolResult },
  );
  setHandler(
    subAgentWaitingSignal,
    onSignal(state, 'subAgentWaiting', (report) => noteSubAgentWaiting(state, report as SubAgentWaitingReport)),
    { description: HANDLER_DESCRIPTIONS.internal },
  );
  setHandler(workerRefusedSignal, onSignal(state, 'workerRefused', (refusal) => showRefusalInRun(state, refusal)), { description: HANDLER_DESCRIPTIONS.internal });
  setHandler(
    setGroupsSignal,
    onSignal(state, 'setGroups', (req) => {
      const { active, unknown } = changeGroups(state.descriptor, state.activeGroups, req);
      noteGroups(state, active, 'user');
      if (unknown.length > 0) apply(state, { rejected: [{ handler: 'setGroups', reason: `setGroups: unknown group(s) ${unknown.map((n) => `'${n}'`).join(', ')} were ignored` }] });
    }),
    { description: HANDLER_DESCRIPTIONS.setGroups },
  );

  setHandler(decideUpdate, (req) => recordDecision(state, acceptedRequest(state, 'decide', req)), {
    description: HANDLER_DESCRIPTIONS.decide,
    validator: answerValidator(state, 'decide', 'approval'),
  });
  setHandler(delegateUpdate, (req) => delegateCall(state, acceptedRequest(state, 'delegate', req)), {
    description: HANDLER_DESCRIPTIONS.delegate,
    validator: (raw) => {
      const request = validated(state, 'delegate', raw);
      refuseIfHeldElsewhere(state, request.callId);
      const problem = delegationProblem(state, request);
      if (problem) throw new Error(problem);
    },
  });
  setHandler(submitToolResultUpdate, (req) => recordSubmission(state, acceptedRequest(state, 'submitToolResultUpdate', req)), {
    description: HANDLER_DESCRIPTIONS.submitToolResultUpdate,
    validator: answerValidator(state, 'submitToolResultUpdate', 'external'),
  });

  setHandler(addInputUpdate, (req) => addInput(state, acceptedRequest(state, 'addInput', req)), {
    description: HANDLER_DESCRIPTIONS.addInput,
    validator: (raw) => {
      validated(state, 'addInput', raw);
      const refusal = inputRefusal(state);
      if (refusal) throw new Error(refusal);
    },
  });

  // A signal with a name the run does not know would otherwise wait in a buffer unseen.
  setDefaultSignalHandler((name: string) => {
    apply(state, { rejected: [{ handler: name, reason: `'${name}' is not a signal of an agent run` }] });
  });
}
