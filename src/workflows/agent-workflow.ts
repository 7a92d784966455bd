import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  log,
  patched,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { eventsQuery, stateQuery } from '../common/definitions';
import { addUsage, type ToolCall } from '../common/messages';
import { callCost } from '../common/pricing';
import type { AgentRunResult, AgentWorkflowInput, FinalStatus } from '../common/run';
import { FailureTypes } from '../common/failures';
import { AGENT_NAME, AGENT_STATUS } from '../common/search-attributes';
import { localActivities } from './activities-proxy';
import { nowIso } from './clock';
import { carriedFits, shouldContinueAsNew } from './continue-as-new';
import { preview, recordEvent } from './event-log';
import { toWorkflowFailure } from './fail-run';
import { installHandlers } from './handlers';
import { cancelledAtLimit, EMPTY_REPLY_REMINDER, isEmptyReply, summaryRequest } from './iteration-limit';
import { callModelWithFallback } from './model-step';
import { carryState, costField, createRunState, startingState, type RunState } from './run-state';
import { announceAgent, publishUsage, setStatus, setStep, SPARSE_SEARCH_ATTRIBUTES_PATCH } from './status';
import { actOnToolCalls } from './tool-step';
import { visibleTools } from './tool-visibility';
import { usedCallIds, withUniqueCallIds } from './unique-call-ids';

function finish(state: RunState, status: FinalStatus, output: string): AgentRunResult {
  state.output = output;
  setStatus(state, status);
  setStep(state, status === 'completed' ? 'finished' : 'stopped at the iteration limit', preview(output, 500));
  recordEvent(state, { type: 'run_finished', status, output: preview(output, 500), ...totals(state) }, nowIso());
  return { status, output, messages: state.messages, usage: state.usage, ...costField(state), iterations: state.iterations };
}

function totals(state: RunState) {
  return { usage: state.usage, ...costField(state) };
}

async function reason(state: RunState, withTools: boolean) {
  const tools = withTools ? visibleTools(state.descriptor, state.activeGroups) : [];
  setStep(state, `calling the model (iteration ${state.iterations})`);
  const reply = await callModelWithFallback(state, tools);
  const message = withUniqueCallIds(reply.message, usedCallIds(state.messages), state.iterations);
  const cost = callCost(state.descriptor.model.prices, reply.model, reply.usage);
  state.usage = addUsage(state.usage, reply.usage);
  state.cost += cost ?? 0;
  state.messages.push(message);
  publishUsage(state);
  recordEvent(
    state,
    {
      type: 'model_call_finished',
      iteration: state.iterations,
      model: reply.model,
      usage: reply.usage,
      toolCalls: message.toolCalls?.length ?? 0,
      text: preview(message.content ?? ''),
      ...(cost !== undefined ? { cost } : {}),
    },
    nowIso(),
  );
  return message;
}

/** At the limit: whatever calls the last reply made are not run, and one model call without tools sums up. */
async function summarizeAtLimit(state: RunState, unrun: ToolCall[]): Promise<AgentRunResult> {
  state.messages.push(...cancelledAtLimit(unrun, state.maxIters), summaryRequest(state.maxIters));
  const summary = await reason(state, false);
  return finish(state, 'max_iterations', summary.content ?? '');
}

async function loop(state: RunState, input: AgentWorkflowInput): Promise<AgentRunResult> {
  for (;;) {
    state.iterations += 1;
    recordEvent(state, { type: 'iteration_started', iteration: state.iterations }, nowIso());
    const message = await reason(state, true);
    const calls = message.toolCalls ?? [];

    if (isEmptyReply(message.content, calls)) {
      state.emptyReplies += 1;
      if (state.emptyReplies > state.descriptor.maxEmptyReplies) {
        throw ApplicationFailure.nonRetryable(
          `The model replied empty ${state.emptyReplies} times in a row (limit ${state.descriptor.maxEmptyReplies}).`,
          FailureTypes.emptyReplies,
        );
      }
      state.messages.push(EMPTY_REPLY_REMINDER);
    } else if (calls.length === 0) {
      return finish(state, 'completed', message.content ?? '');
    } else {
      state.emptyReplies = 0;
      if (state.iterations >= state.maxIters) return summarizeAtLimit(state, calls);
      state.messages.push(...(await actOnToolCalls(state, calls)));
    }

    // Empty replies count as iterations too; at the limit, ask for the summary.
    if (state.iterations >= state.maxIters && calls.length === 0) return summarizeAtLimit(state, []);
    if (shouldContinueAsNew(input.options)) {
      const carried = carryState(state);
      if (carriedFits(state, carried)) {
        await condition(allHandlersFinished);
        log.info('Continuing as new', { iterations: state.iterations, historyLength: workflowInfo().historyLength });
        return continueAsNew<typeof agentWorkflow>({ ...input, carried });
      }
    }
  }
}

/** The agent as the worker knows it, recorded for the whole run; an unknown agent fails the run at once. */
async function describe(agent: string) {
  try {
    return await localActivities.describeAgent.executeWithOptions(
      { summary: `describe agent ${agent}`, startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } },
      [{ agent }],
    );
  } catch (error) {
    if (isCancellation(error)) throw error;
    upsertSearchAttributes([
      { key: AGENT_NAME, value: agent },
      { key: AGENT_STATUS, value: 'failed' },
    ]);
    throw toWorkflowFailure(error);
  }
}

/** One agent run: the ReAct loop of reasoning (model activity) and acting (tool activities). */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunResult> {
  // Answer queries while the agent is being described; signals and updates wait in Temporal's buffer.
  setHandler(stateQuery, () => startingState(input));
  setHandler(eventsQuery, () => []);
  // Decided before anything else happens, so the patch's marker is the run's first command.
  const sparse = patched(SPARSE_SEARCH_ATTRIBUTES_PATCH);
  const descriptor = input.carried?.descriptor ?? (await describe(input.agent));
  const state = createRunState(input, descriptor);
  state.sparseSearchAttributes = sparse;
  installHandlers(state);
  announceAgent(state);
  try {
    return await loop(state, input);
  } catch (error) {
    if (isCancellation(error)) {
      setStatus(state, 'cancelled');
      recordEvent(state, { type: 'run_finished', status: 'cancelled', output: '', ...totals(state) }, nowIso());
      throw error;
    }
    if (error instanceof ContinueAsNew) throw error;
    setStatus(state, 'failed');
    const failure = toWorkflowFailure(error);
    recordEvent(state, { type: 'run_finished', status: 'failed', output: failure.message, ...totals(state) }, nowIso());
    throw failure;
  }
}
