import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { ApplicationFailure } from '@temporalio/workflow';
import type { AssistantMessage, ToolCall } from '../../common/messages';
import type { FinalStatus } from '../../common/run';
import { FailureTypes } from '../../common/failures';
import { apply, preview } from '../effects';
import { cancelledAtLimit, EMPTY_REPLY_REMINDER, isEmptyReply, summaryOutput, summaryRequest } from './iteration-limit';
import { answerSetAside, answerTools, callModelWithFallback, compact, finalAnswerCall, finalAnswerNotAlone, isContextTooLong, overBudget, typedAnswer, usedCallIds, withUniqueCallIds } from '../model';
import type { CallModelOutput } from '../../common/contracts/model-call';
import type { ToolSpec } from '../../common/tools';
import type { RunState } from '../state';
import { deliverInputs, hasQueuedInput, interruptibleCall } from '../context';
import { actOnToolCalls } from '../tools';
import { visibleTools } from '../toolset';
import { charge, keepWithinBudget, partialAnswer, type BudgetEnd } from '../spend';

/** How the loop ended: the model's final answer, or the summary it gave at the iteration limit. */
export interface LoopEnd {
  status: FinalStatus;
  output: string;
  /** The typed answer, for an agent with an output schema. */
  data?: unknown;
  /** Why the run stopped short of an answer (a budget reached), for its current step. */
  why?: string;
}

export interface LoopHooks {
  /**
   * After each iteration that goes on; a run may continue as new there (it throws ContinueAsNew).
   * Nothing to await (undefined) in runs with `lean-steps` when there is nothing to do.
   */
  afterIteration?: (state: RunState) => Promise<void> | undefined;
}

/** A model that said the conversation is too long for its context gets it compacted once, and the call again. */
async function compactAndCallAgain(state: RunState, tools: ToolSpec[], error: unknown): Promise<CallModelOutput> {
  if (!isContextTooLong(error) || !(await compact(state, 'context_too_long'))) throw error;
  apply(state, { step: { text: `calling the model again after compacting (iteration ${state.iterations})` } });
  return callModelWithFallback(state, tools);
}

async function reason(state: RunState, withTools: boolean): Promise<AssistantMessage> {
  const tools = [...(withTools ? visibleTools(state.descriptor, state.activeGroups) : []), ...answerTools(state.descriptor)];
  // Awaited only when there is work: an await costs microtask turns, which would reorder the commands of recorded runs.
  if (overBudget(state)) await compact(state, 'budget');
  apply(state, { step: { text: `calling the model (iteration ${state.iterations})` } });
  deliverInputs(state);
  let reply: CallModelOutput;
  try {
    reply = await interruptibleCall(state, () => callModelWithFallback(state, tools));
  } catch (error) {
    reply = await compactAndCallAgain(state, tools, error);
  }
  const message = withUniqueCallIds(reply.message, usedCallIds(state.messages), state.iterations);
  const cost = charge(state, state.descriptor.model.prices, reply);
  state.messages.push(message);
  state.lastCall = { promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens, messageCount: state.messages.length };
  apply(state, {
    tokens: true,
    events: [
      {
        type: 'model_call_finished',
        iteration: state.iterations,
        model: reply.model,
        usage: reply.usage,
        toolCalls: message.toolCalls?.length ?? 0,
        text: preview(message.content ?? ''),
        ...(cost !== undefined ? { cost } : {}),
      },
    ],
  });
  return message;
}

/**
 * At the limit: whatever calls the last reply made are not run, and one model call without tools
 * sums up (a typed answer once more). `from`: where this loop's messages start.
 */
async function summarizeAtLimit(state: RunState, unrun: ToolCall[], limit: number, from: number): Promise<LoopEnd> {
  state.messages.push(...cancelledAtLimit(unrun, limit), summaryRequest(limit));
  const check = keepWithinBudget(state);
  const end = check && (await check);
  if (end) return budgetExhausted(state, end);
  const summary = await reason(state, false);
  if (state.descriptor.output) return (await typedAnswer(state, summary, 'max_iterations', true))!;
  return { status: 'max_iterations', output: summaryOutput(state.messages, from, limit) };
}

/** The budget was reached and not raised: the run's answer is what the model wrote last. */
function budgetExhausted(state: RunState, end: BudgetEnd): LoopEnd {
  return { status: 'budget_exhausted', output: partialAnswer(state), why: end.reason };
}

/** An answer given while an added input waits stays in the conversation; a final-answer call gets its result. */
function setAside(state: RunState, message: AssistantMessage): undefined {
  const call = finalAnswerCall(state.descriptor, message.toolCalls ?? []);
  if (call) state.messages.push(answerSetAside(call));
  return undefined;
}


/**
 * The ReAct loop — reason (a model call), act (the tool calls it asked for), observe (their
 * results become messages) — until the model answers without tool calls or the iteration limit
 * (`state.maxIters`, counted in `state.iterations`) is reached. One loop for runs and for each
 * turn of a conversation.
 */
export async function reactLoop(state: RunState, hooks: LoopHooks = {}, limit = state.maxIters): Promise<LoopEnd> {
  const from = state.messages.length;
  for (;;) {
    // Awaited only with a budget past its limit: runs without one replay their commands unchanged.
    const check = keepWithinBudget(state);
    const end = check && (await check);
    if (end) return budgetExhausted(state, end);
    state.iterations += 1;
    apply(state, { events: [{ type: 'iteration_started', iteration: state.iterations }] });
    const message = await reason(state, true);
    const calls = message.toolCalls ?? [];
    // A typed agent's final-answer call alone is its answer, like a reply without calls.
    const answers = calls.length === 0 || (calls.length === 1 && finalAnswerCall(state.descriptor, calls) !== undefined);

    if (isEmptyReply(message.content, calls)) {
      state.emptyReplies += 1;
      if (state.emptyReplies > state.descriptor.maxEmptyReplies) {
        throw ApplicationFailure.nonRetryable(
          `The model replied empty ${state.emptyReplies} times in a row (limit ${state.descriptor.maxEmptyReplies}).`,
          FailureTypes.emptyReplies,
        );
      }
      state.messages.push(EMPTY_REPLY_REMINDER);
    } else if (answers) {
      // An input added while the model answered: the answer stands in the conversation, and the model is asked again.
      if (!hasQueuedInput(state) && !state.descriptor.output) return { status: 'completed', output: message.content ?? '' };
      // A typed answer is checked by a worker first (undefined: it was fed back, the loop goes on).
      const end = hasQueuedInput(state) ? setAside(state, message) : await typedAnswer(state, message, 'completed');
      if (end) return end;
    } else {
      state.emptyReplies = 0;
      if (state.iterations >= state.maxIters) return summarizeAtLimit(state, calls, limit, from);
      const early = finalAnswerCall(state.descriptor, calls);
      const others = early ? calls.filter((call) => call !== early) : calls;
      state.messages.push(...(await actOnToolCalls(state, others)), ...(early ? [finalAnswerNotAlone(early)] : []));
    }

    // Empty replies count as iterations too; at the limit, ask for the summary.
    if (state.iterations >= state.maxIters && answers) return summarizeAtLimit(state, [], limit, from);
    const after = hooks.afterIteration?.(state);
    if (after || !hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.leanSteps)) await after;
  }
}
