import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../common/boundary/limits';
import { idleTimeoutMs, type CarriedConversation, type ConversationInput, type ConversationResult } from '../../common/conversation';
import { eventsQuery, stateQuery } from '../../common/definitions';
import { AGENT_TURNS } from '../../common/search-attributes';
import type { AgentWorkflowInput } from '../../common/run';
import { installConversationHandlers, type ConversationControl } from './conversation-handlers';
import { runTurn } from './conversation-turn';
import { carriedFits, shouldContinueAsNew } from './continue-as-new';
import { describeAgent, userIdOf } from './describe-agent';
import { toWorkflowFailure } from './fail-run';
import { installHandlers } from './handlers';
import { carryState } from './carry-state';
import { noteIgnoredCost } from '../spend';
import { createRunState } from './create-run-state';
import { costField, type RunState } from '../state';
import { startingState } from './state-snapshot';
import { handOverNotices, hasNoticesToHandOver } from './notices-handover';
import { noteFork, startFrom, withModel } from './fork-start';
import { apply } from '../effects';

/** The run-shaped view of a conversation: one state and one loop for both. */
function asRunInput(input: ConversationInput): AgentWorkflowInput {
  return {
    agent: input.agent,
    prompt: '',
    runtime: { sessionId: input.sessionId, ...(input.runtime ?? {}) },
    ...(input.budget !== undefined ? { options: { budget: input.budget } } : {}),
  };
}

/** A value that is not a duration fails the conversation at its start, naming it. */
function idleTimeoutOf(input: ConversationInput): number {
  try {
    return idleTimeoutMs(input.idleTimeout);
  } catch (error) {
    throw ApplicationFailure.nonRetryable((error as Error).message, 'Agent.BadInput');
  }
}

/**
 * Between turns, when Temporal suggests it and no message is waiting: the state goes into a new
 * run of the same conversation. Handlers still finishing (the last answer being handed back) are
 * waited for; a message that arrives meanwhile is answered first.
 */
async function continueAsNewBetweenTurns(state: RunState, control: ConversationControl, input: ConversationInput): Promise<void> {
  if (control.ended || control.queue.length > 0) return;
  if (!shouldContinueAsNew({ continueAsNewAfterEvents: input.continueAsNewAfterEvents })) return;
  await condition(() => allHandlersFinished() || control.queue.length > 0 || control.ended);
  if (control.ended || control.queue.length > 0) return;
  const carried: CarriedConversation = { ...carryState(state), turns: control.sent };
  if (!carriedFits(state, carried)) return;
  if (hasNoticesToHandOver(state)) await handOverNotices(state);
  log.info('Continuing the conversation as new', { turns: control.sent, historyLength: workflowInfo().historyLength });
  const { fork: _started, ...next } = input;
  await continueAsNew<typeof conversationWorkflow>({ ...next, carried });
}

async function converse(state: RunState, control: ConversationControl, input: ConversationInput, idleMs: number, perTurn: number) {
  for (;;) {
    apply(state, {
      status: 'idle',
      attributes: [{ key: AGENT_TURNS, value: control.sent - control.queue.length }],
      step: { text: control.sent === 0 ? 'waiting for the first message' : `waiting for message ${control.sent + 1}` },
    });
    await condition(() => control.queue.length > 0 || control.ended, idleMs);
    const next = control.queue.shift();
    if (!next) return control.ended ? 'ended' : 'idle';
    control.answers.set(next.turn, await runTurn(state, next, perTurn));
    await continueAsNewBetweenTurns(state, control, input);
  }
}

/**
 * A conversation with one agent: a workflow that outlives its turns. Each message (the
 * `sendMessage` update) is a turn answered by the same ReAct loop as a run, with the same tools,
 * permissions, approvals and events; the conversation ends by `endConversation` or after
 * `idleTimeout` without a message.
 */
export async function conversationWorkflow(input: ConversationInput): Promise<ConversationResult> {
  let startingStep = 'starting';
  setHandler(stateQuery, () => startingState(asRunInput(input), startingStep));
  setHandler(eventsQuery, () => []);
  const from = startFrom({ fork: input.fork, options: { model: input.model } }, input.carried !== undefined);
  const control: ConversationControl = { queue: [], answers: new Map(), ended: false, sent: input.carried?.turns ?? from.fork?.turns ?? 0 };
  let maxPayloadBytes = input.carried?.descriptor.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  installConversationHandlers(control, () => maxPayloadBytes);
  const idleMs = idleTimeoutOf(input);
  const descriptor = input.carried?.descriptor ?? withModel(await describeAgent(input.agent, (step) => (startingStep = step), userIdOf(input.runtime)), from.model);
  const runInput = { ...asRunInput(input), carried: input.carried };
  const state = createRunState(runInput, descriptor, from.fork);
  if (!input.carried && !from.fork) state.messages = [{ role: 'system', content: descriptor.instructions }];
  state.sparseSearchAttributes = true;
  noteFork(state, from);
  maxPayloadBytes = descriptor.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  installHandlers(state);
  noteIgnoredCost(state, runInput);
  apply(state, { announce: true });
  try {
    const reason = await converse(state, control, input, idleMs, input.maxItersPerTurn ?? descriptor.maxIters);
    control.ended = true;
    await condition(allHandlersFinished);
    apply(state, {
      status: 'ended',
      step: { text: reason === 'idle' ? 'ended: no message within the idle timeout' : 'ended' },
      events: [{ type: 'conversation_ended', reason, turns: control.sent }],
    });
    if (hasNoticesToHandOver(state)) await handOverNotices(state);
    return { reason, turns: control.sent, usage: state.usage, ...costField(state) };
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      apply(state, { status: 'cancelled', events: [{ type: 'conversation_ended', reason: 'cancelled', turns: control.sent }] });
      if (hasNoticesToHandOver(state)) await handOverNotices(state);
      throw error;
    }
    apply(state, { status: 'failed' });
    if (hasNoticesToHandOver(state)) await handOverNotices(state);
    throw toWorkflowFailure(error);
  }
}
