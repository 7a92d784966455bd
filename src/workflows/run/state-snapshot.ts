import { emptyUsage } from '../../common/messages';
import type { AgentWorkflowInput, StateQueryAnswer } from '../../common/run';
import { allPending, visibleRecords } from '../calls';
import { newestMessages } from '../context';
import { budgetReport } from '../spend';
import { costField, type RunState } from '../state';

/** The `state` query's answer. */
export function snapshotState(state: RunState): StateQueryAnswer {
  const lastAssistant = [...state.messages].reverse().find((m) => m.role === 'assistant');
  return {
    agent: state.agent,
    ...(state.runtime.userId !== undefined ? { startedBy: state.runtime.userId } : {}),
    status: state.status,
    iterations: state.iterations,
    maxIters: state.maxIters,
    usage: state.usage,
    ...costField(state),
    ...newestMessages(state.messages),
    pending: allPending(state),
    calls: visibleRecords(state),
    activeGroups: state.activeGroups,
    sessionRules: state.sessionRules,
    currentStep: state.currentStep,
    lastToolCalls: lastAssistant?.role === 'assistant' ? lastAssistant.toolCalls ?? [] : [],
    ...(state.output !== undefined ? { output: state.output } : {}),
    ...(state.budget ? { budget: budgetReport(state, state.budget) } : {}),
    ...(state.fork ? { fork: state.fork } : {}),
  };
}

/** What the `state` query answers before the agent's description has arrived. */
export function startingState(input: AgentWorkflowInput, currentStep = 'starting'): StateQueryAnswer {
  return {
    agent: input.agent,
    status: 'running',
    iterations: 0,
    maxIters: input.options?.maxIters ?? 0,
    usage: emptyUsage(),
    messages: [],
    pending: [],
    activeGroups: [],
    sessionRules: [],
    currentStep,
    lastToolCalls: [],
  };
}
