import { WorkflowIdReusePolicy } from '@temporalio/client';
import type { Priority, SearchAttributePair } from '@temporalio/common';
import { START_INPUT_VERSION } from '../common/run';
import type { RuntimeContext } from '../common/runtime';
import { AGENT_NAME, AGENT_STATUS } from '../common/search-attributes';
import { checkedBudget, type Budget } from '../common/budget';
import { fairnessPriority, type FairnessOption } from './fairness';

export interface StartOptions {
  prompt: string;
  userId?: string;
  sessionId?: string;
  /** More runtime context for the tools (never shown to the model). */
  runtime?: RuntimeContext;
  /** Workflow id; `<agent>-<random>` by default. */
  id?: string;
  maxIters?: number;
  continueAsNewAfterEvents?: number;
  /**
   * The run's share of the task queue among other users' runs: by default its `userId` is its
   * fairness key (see FairnessOption); its sub-agents, model calls and tools share it.
   */
  fairness?: FairnessOption;
  /**
   * What the run may spend on model calls, its sub-agents' included (with the agent's budget, each
   * limit is the smaller): `{ cost: 2 }`, `{ tokens: 200_000, onReached: 'stop' }`, … (see Budget).
   */
  budget?: Budget;
  /** The model the run calls in place of the agent's (its fallbacks are not used): an eval on another model, say. */
  model?: string;
}

/** A model name given to start a run on: a non-empty string, refused before anything is sent. */
function checkedModel(model: unknown): string | undefined {
  if (model === undefined) return undefined;
  if (typeof model !== 'string' || model.trim() === '') throw new TypeError('`model` must be a model name (a non-empty string).');
  return model;
}

function promptSummary(agent: string, prompt: string): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  return `${agent}: ${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}`;
}

/**
 * What starting a run of an agent asks of Temporal — the workflow's input, id, search attributes,
 * summary and priority — whoever starts it: the client, a schedule's action, a Nexus operation.
 */
export interface AgentStartRequest {
  workflowType: 'agentWorkflow';
  workflowId: string;
  args: [AgentStartInput];
  workflowIdReusePolicy: typeof WorkflowIdReusePolicy.REJECT_DUPLICATE;
  typedSearchAttributes: SearchAttributePair[];
  staticSummary: string;
  priority?: Priority;
}

export type AgentStartInput = ReturnType<typeof startInputOf>;

function startInputOf(agent: string, options: StartOptions) {
  const runtime: RuntimeContext = {
    ...(options.runtime ?? {}),
    ...(options.userId !== undefined ? { userId: options.userId } : {}),
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
  };
  const budget = checkedBudget('budget', options.budget);
  const model = checkedModel(options.model);
  return {
    agent,
    prompt: options.prompt,
    startInputVersion: START_INPUT_VERSION,
    runtime,
    options: {
      ...(options.maxIters !== undefined ? { maxIters: options.maxIters } : {}),
      ...(options.continueAsNewAfterEvents !== undefined ? { continueAsNewAfterEvents: options.continueAsNewAfterEvents } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(model !== undefined ? { model } : {}),
    },
  };
}

/** The start of a run of `agent`, its options checked (a bad budget or model throws before anything is sent). */
export function agentStartRequest(agent: string, options: StartOptions): AgentStartRequest {
  const priority = fairnessPriority(options.userId, options.fairness);
  return {
    workflowType: 'agentWorkflow',
    workflowId: options.id ?? `${agent}-${Math.random().toString(36).slice(2, 10)}`,
    args: [startInputOf(agent, options)],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: AGENT_NAME, value: agent },
      { key: AGENT_STATUS, value: 'running' },
    ],
    staticSummary: promptSummary(agent, options.prompt),
    ...(priority ? { priority } : {}),
  };
}
