import { ContinueAsNew, isCancellation } from '@temporalio/workflow';
import type { TurnResult } from '../../common/conversation';
import type { TokenUsage } from '../../common/messages';
import { apply, preview } from '../effects';
import { toWorkflowFailure } from './fail-run';
import { reactLoop } from './react-loop';
import type { RunState } from '../state';

/** A message waiting for its turn. */
export interface QueuedMessage {
  turn: number;
  text: string;
}

const usageSince = (now: TokenUsage, before: TokenUsage): TokenUsage => ({
  promptTokens: now.promptTokens - before.promptTokens,
  completionTokens: now.completionTokens - before.completionTokens,
  totalTokens: now.totalTokens - before.totalTokens,
});

/**
 * One turn of a conversation: the message joins the conversation and the run's own ReAct loop
 * answers it, with at most `perTurn` iterations. A turn the model cannot finish (it failed for
 * good) answers with status `failed`; the conversation goes on.
 */
export async function runTurn(state: RunState, message: QueuedMessage, perTurn: number): Promise<TurnResult> {
  const before = { usage: state.usage, cost: state.cost, iterations: state.iterations };
  state.messages.push({ role: 'user', content: message.text });
  apply(state, { events: [{ type: 'turn_started', turn: message.turn, text: preview(message.text, 500) }], status: 'running' });
  state.maxIters = state.iterations + perTurn;
  state.emptyReplies = 0;
  let status: TurnResult['status'];
  let output: string;
  let data: { data?: unknown } = {};
  try {
    const end = await reactLoop(state, {}, perTurn);
    ({ status, output } = end);
    if ('data' in end) data = { data: end.data };
  } catch (error) {
    if (isCancellation(error) || error instanceof ContinueAsNew) throw error;
    status = 'failed';
    output = toWorkflowFailure(error).message;
  }
  state.output = output;
  const usage = usageSince(state.usage, before.usage);
  const cost = state.descriptor.model.prices ? { cost: state.cost - before.cost } : {};
  const iterations = state.iterations - before.iterations;
  apply(state, {
    step: { text: `answered message ${message.turn}`, details: preview(output, 500) },
    events: [{ type: 'turn_finished', turn: message.turn, status, output: preview(output, 500), usage, iterations, ...cost }],
  });
  return { turn: message.turn, status, output, ...data, usage, iterations, ...cost };
}
