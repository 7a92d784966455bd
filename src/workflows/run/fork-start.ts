import { ApplicationFailure } from '@temporalio/workflow';
import type { AgentDescriptor } from '../../common/agent';
import { checkedForkStart, type ForkStart } from '../../common/fork';
import type { RunState } from '../state';
import { apply } from '../effects';

/** What a run starts from besides its prompt: a fork's conversation, a model in place of the agent's. */
export interface StartFrom {
  fork?: ForkStart;
  model?: string;
}

/** A start input may come from anywhere (the Temporal CLI, an old client): a fork or model that is not one ends the run, saying why. */
export function startFrom(input: { fork?: unknown; options?: { model?: unknown } }, carried: boolean): StartFrom {
  if (carried) return {};
  try {
    const model = input.options?.model;
    if (model !== undefined && (typeof model !== 'string' || model.trim() === '')) throw new Error('options.model must be a model name');
    return { ...(input.fork !== undefined ? { fork: checkedForkStart(input.fork) } : {}), ...(typeof model === 'string' ? { model } : {}) };
  } catch (error) {
    throw ApplicationFailure.nonRetryable((error as Error).message, 'Agent.BadInput');
  }
}

/** The agent as the run calls it: with another model, that one alone (the agent's fallbacks are for its own model). */
export function withModel(descriptor: AgentDescriptor, model: string | undefined): AgentDescriptor {
  return model === undefined ? descriptor : { ...descriptor, model: { ...descriptor.model, name: model, fallbacks: [] } };
}

/** A fork's first event names the run and the event it came from. */
export function noteFork(state: RunState, from: StartFrom): void {
  if (!from.fork) return;
  const { workflowId, at, agent } = from.fork.origin;
  apply(state, { events: [{ type: 'run_forked', of: workflowId, after: at, agent, ...(from.model ? { model: from.model } : {}) }] });
}
