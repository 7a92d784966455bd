import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import {
  allHandlersFinished,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  log,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { eventsQuery, stateQuery } from '../../common/definitions';
import { START_INPUT_VERSION, type AgentRunResult, type AgentWorkflowInput, type FinalStatus } from '../../common/run';
import { carriedFits, shouldContinueAsNew } from './continue-as-new';
import { apply, preview, SPARSE_SEARCH_ATTRIBUTES_PATCH } from '../effects';
import { toWorkflowFailure } from './fail-run';
import { installHandlers } from './handlers';
import { carryState } from './carry-state';
import { createRunState } from './create-run-state';
import { costField, type RunState } from '../state';
import { startingState } from './state-snapshot';
import { newestMessages, RESULT_MESSAGES_BYTES } from '../context';
import { reactLoop, type LoopEnd } from './react-loop';
import { budgetReport, noteIgnoredCost, withSpending } from '../spend';
import { describeAgent, userIdOf } from './describe-agent';
import { reportWaitsToParent } from '../tools';
import { handOverNotices, hasNoticesToHandOver } from './notices-handover';
import { noteFork, startFrom, withModel } from './fork-start';

const STOPPED: Record<FinalStatus, string> = { completed: 'finished', max_iterations: 'stopped at the iteration limit', budget_exhausted: 'stopped' };

function finish(state: RunState, end: LoopEnd): AgentRunResult {
  const { status, output } = end;
  const data = 'data' in end ? { data: end.data } : {};
  state.output = output;
  apply(state, {
    status,
    step: { text: end.why ? `${STOPPED[status]}: ${end.why}` : STOPPED[status], details: preview(output, 500) },
    events: [{ type: 'run_finished', status, output: preview(output, 500), ...totals(state) }],
  });
  // A result over Temporal's 2 MiB would fail the run as it completes: the newest messages, and their count.
  const newest = newestMessages(state.messages, RESULT_MESSAGES_BYTES);
  const messages = newest.messages.length === state.messages.length ? { messages: state.messages } : newest;
  const subAgents = state.subAgents.length > 0 ? { subAgents: state.subAgents } : {};
  const budget = state.budget ? { budget: budgetReport(state, state.budget) } : {};
  return { status, output, ...data, ...messages, usage: state.usage, ...costField(state), iterations: state.iterations, ...subAgents, ...budget };
}

function totals(state: RunState) {
  return { usage: state.usage, ...costField(state) };
}

/**
 * A run continues as new between iterations when Temporal suggests it (or its history bound is
 * passed) and its state fits. With `lean-steps` nothing is awaited unless it is suggested.
 */
function continueWhenSuggested(input: AgentWorkflowInput) {
  return (state: RunState): Promise<void> | undefined => {
    if (hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.leanSteps) && !shouldContinueAsNew(input.options)) return undefined;
    return continueIfItFits(state, input);
  };
}

async function continueIfItFits(state: RunState, input: AgentWorkflowInput): Promise<void> {
  if (!shouldContinueAsNew(input.options)) return;
  const carried = carryState(state);
  if (!carriedFits(state, carried)) return;
  await condition(allHandlersFinished);
  if (hasNoticesToHandOver(state)) await handOverNotices(state);
  log.info('Continuing as new', { iterations: state.iterations, historyLength: workflowInfo().historyLength });
  // A fork's starting conversation is in the carried state now: the input does not carry it twice.
  const { fork: _started, ...next } = input;
  await continueAsNew<typeof agentWorkflow>({ ...next, carried });
}

/** One agent run: the ReAct loop of reasoning (model activity) and acting (tool activities). */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunResult> {
  // Answer queries while the agent is being described; signals and updates wait in Temporal's buffer.
  let startingStep = 'starting';
  setHandler(stateQuery, () => startingState(input, startingStep));
  setHandler(eventsQuery, () => []);
  // Decided before anything else happens, so the patch's marker (in runs of older clients) is the run's first command.
  const sparse = (input.startInputVersion ?? 1) >= START_INPUT_VERSION || patched(SPARSE_SEARCH_ATTRIBUTES_PATCH);
  const from = startFrom(input, input.carried !== undefined);
  const descriptor = input.carried?.descriptor ?? withModel(await describeAgent(input.agent, (step) => (startingStep = step), userIdOf(input.runtime)), from.model);
  const state = createRunState(input, descriptor, from.fork);
  state.sparseSearchAttributes = sparse;
  noteFork(state, from);
  installHandlers(state);
  noteIgnoredCost(state, input);
  reportWaitsToParent(state);
  apply(state, { announce: true });
  try {
    const end = await reactLoop(state, { afterIteration: continueWhenSuggested(input) });
    const result = finish(state, end);
    if (hasNoticesToHandOver(state)) await handOverNotices(state);
    return result;
  } catch (error) {
    if (isCancellation(error)) {
      apply(state, { status: 'cancelled', events: [{ type: 'run_finished', status: 'cancelled', output: '', ...totals(state) }] });
      if (hasNoticesToHandOver(state)) await handOverNotices(state);
      throw error;
    }
    if (error instanceof ContinueAsNew) throw error;
    const failure = toWorkflowFailure(error);
    apply(state, { status: 'failed', events: [{ type: 'run_finished', status: 'failed', output: failure.message, ...totals(state) }] });
    if (hasNoticesToHandOver(state)) await handOverNotices(state);
    throw state.parent ? withSpending(failure, totals(state)) : failure;
  }
}
