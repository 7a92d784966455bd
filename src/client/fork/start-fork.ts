import { WorkflowIdReusePolicy, type WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';
import { checkedBudget, type Budget } from '../../common/budget';
import { conversationWorkflowId, sendMessageUpdate, type ConversationInput } from '../../common/conversation';
import type { ForkStart } from '../../common/fork';
import type { Message } from '../../common/messages';
import { START_INPUT_VERSION, type AgentWorkflowInput } from '../../common/run';
import type { RuntimeContext } from '../../common/runtime';
import { AGENT_FORK_OF, AGENT_NAME, AGENT_SESSION_ID, AGENT_STATUS, AGENT_TURNS } from '../../common/search-attributes';
import type { AgentRun } from '../agent-run';
import { fairnessPriority } from '../fairness';
import { checkStartInputSize } from '../start-input-size';
import { forkStartAt, ForkRefusedError } from './fork-point';
import { readRecordedStart } from './recorded-start';

export interface ForkOptions {
  /** The event (`seq`, as `events()` and `watch` show it) after which the fork starts; 0: before any. */
  at: number;
  /**
   * A user message: in place of the last one when the fork point is right after a user message
   * (an edit of it), else added after the conversation as it stood. A conversation's fork sends it
   * as its next message.
   */
  message?: string;
  /** The model the fork calls in place of the agent's. */
  model?: string;
  /** The system message (the agent's instructions) the fork's model reads in place of the recorded one. */
  instructions?: string;
  /** The fork's workflow id (a conversation's: its session id); `<workflowId>-fork-<random>` by default. */
  id?: string;
  /** The user the fork runs for; the forked run's by default. */
  userId?: string;
  maxIters?: number;
  /** The fork's budget; the forked run's by default. Its spend so far counts against it. */
  budget?: Budget;
}

const forkOptionsSchema = z
  .object({
    at: z.number({ required_error: 'a fork needs `at`: the seq of the event to fork after' }).int('`at` must be a whole number').nonnegative('`at` must not be below 0'),
    message: z.string().trim().min(1, '`message` must not be empty').optional(),
    model: z.string().trim().min(1, '`model` must not be empty').optional(),
    instructions: z.string().trim().min(1, '`instructions` must not be empty').optional(),
    id: z.string().min(1).max(1000).optional(),
    userId: z.string().min(1).optional(),
    maxIters: z.number().int().positive().optional(),
    budget: z.unknown().optional(),
  })
  .strict();

function checkedForkOptions(options: ForkOptions): ForkOptions {
  const parsed = forkOptionsSchema.safeParse(options);
  if (!parsed.success) {
    // The schema's own messages name their option (`at`, `message`, …); any other names it by its path.
    const issue = parsed.error.issues[0]!;
    const named = issue.message.startsWith('`') || issue.path.length === 0 || issue.code === 'unrecognized_keys';
    throw new ForkRefusedError(named ? issue.message : `${issue.path.join('.')}: ${issue.message}`);
  }
  checkedBudget('budget', options.budget);
  return parsed.data as ForkOptions;
}

/** Where a fork was started, to make its handle from. */
export interface StartedFork {
  workflowId: string;
  runId: string;
  conversation: boolean;
  /** A conversation's fork: its session id. */
  sessionId?: string;
}

function withInstructions(messages: Message[], instructions: string | undefined): Message[] {
  if (instructions === undefined) return messages;
  const [first, ...rest] = messages;
  return first?.role === 'system' ? [{ role: 'system', content: instructions }, ...rest] : [{ role: 'system', content: instructions }, ...messages];
}

/** A run's fork: the edited or added message goes into the conversation. */
function withMessage(messages: Message[], message: string | undefined): Message[] {
  if (message === undefined) return messages;
  const last = messages.at(-1);
  return last?.role === 'user' ? [...messages.slice(0, -1), { role: 'user', content: message }] : [...messages, { role: 'user', content: message }];
}

function optionsOf(input: Record<string, unknown>): Record<string, unknown> {
  return input.options && typeof input.options === 'object' ? (input.options as Record<string, unknown>) : {};
}

function runtimeOf(input: Record<string, unknown>, userId: string | undefined): RuntimeContext {
  const recorded = input.runtime && typeof input.runtime === 'object' ? (input.runtime as RuntimeContext) : {};
  return { ...recorded, ...(userId !== undefined ? { userId } : {}) };
}

function suffix(): string {
  return Math.random().toString(36).slice(2, 8);
}

function summaryOf(parent: string, at: number, model: string | undefined): string {
  return `fork of ${parent} at event ${at}${model ? ` on ${model}` : ''}`;
}

/**
 * Starts a fork of `parent` (see AgentRun.fork): reads what the run recorded — its start input,
 * events and messages — works out the conversation at `at`, and starts a run (or, for a
 * conversation, a conversation) from it. Every check is made before anything starts.
 */
export async function startFork(parent: AgentRun, raw: ForkOptions, maxPayloadBytes: number): Promise<StartedFork> {
  const options = checkedForkOptions(raw);
  const recorded = await readRecordedStart(parent.handle);
  if (recorded.workflowType !== 'agentWorkflow' && recorded.workflowType !== 'conversationWorkflow') {
    throw new ForkRefusedError(`${parent.workflowId} is a ${recorded.workflowType || 'workflow'}, not an agent run or conversation`);
  }
  // A query of an ended run replays its history on a worker: two, in parallel, not three.
  const [state, events] = await Promise.all([parent.state(), parent.eventsAfter(0)]);
  const messages = (state.messageCount ?? state.messages.length) === state.messages.length ? state.messages : (await parent.messages()).messages;
  const parentRun = recorded.input.parent as { sessionRules?: string[] } | undefined;
  const start = forkStartAt({ workflowId: parent.workflowId, agent: state.agent, events, messages, startingRules: parentRun?.sessionRules ?? [] }, options.at);
  start.messages = withInstructions(start.messages, options.instructions);
  const client = parent.handle.client;
  const recordedOptions = optionsOf(recorded.input);
  const budget = options.budget ?? (recorded.workflowType === 'conversationWorkflow' ? recorded.input.budget : recordedOptions.budget);
  const runtime = runtimeOf(recorded.input, options.userId);
  const priority = fairnessPriority(typeof runtime.userId === 'string' ? runtime.userId : undefined, undefined);
  const common = {
    taskQueue: recorded.taskQueue,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    staticSummary: summaryOf(parent.workflowId, options.at, options.model),
    ...(priority ? { priority } : {}),
  };
  if (recorded.workflowType === 'agentWorkflow') {
    start.messages = withMessage(start.messages, options.message);
    const workflowId = options.id ?? `${parent.workflowId}-fork-${suffix()}`;
    const prompt = start.messages.find((message) => message.role === 'user')?.content ?? '';
    const input: AgentWorkflowInput = {
      agent: state.agent,
      prompt,
      startInputVersion: START_INPUT_VERSION,
      runtime,
      options: {
        ...numberOption('maxIters', options.maxIters ?? recordedOptions.maxIters),
        ...numberOption('continueAsNewAfterEvents', recordedOptions.continueAsNewAfterEvents),
        ...(budget !== undefined ? { budget: budget as Budget } : {}),
        ...(options.model !== undefined ? { model: options.model } : {}),
      },
      fork: start,
    };
    checkStartInputSize(state.agent, workflowId, input, maxPayloadBytes);
    const handle = await client.start('agentWorkflow', {
      ...common,
      workflowId,
      args: [input],
      typedSearchAttributes: [
        { key: AGENT_NAME, value: state.agent },
        { key: AGENT_STATUS, value: 'running' },
        { key: AGENT_FORK_OF, value: parent.workflowId },
      ],
    });
    return { workflowId, runId: handle.firstExecutionRunId, conversation: false };
  }
  return startConversationFork(client, common, { parent: parent.workflowId, agent: state.agent, recorded: recorded.input, runtime, budget, start, options, maxPayloadBytes });
}

function numberOption<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' ? ({ [key]: value } as Record<K, number>) : {};
}

interface ConversationFork {
  parent: string;
  agent: string;
  recorded: Record<string, unknown>;
  runtime: RuntimeContext;
  budget: unknown;
  start: ForkStart;
  options: ForkOptions;
  maxPayloadBytes: number;
}

/** A conversation forks into a conversation: a turn left unanswered at the fork point is sent again (or the message in its place). */
async function startConversationFork(
  client: WorkflowHandle['client'],
  common: Record<string, unknown>,
  fork: ConversationFork,
): Promise<StartedFork> {
  const { start, options, recorded } = fork;
  let next = options.message;
  const last = start.messages.at(-1);
  if (last?.role === 'user') {
    start.messages = start.messages.slice(0, -1);
    start.turns = Math.max(0, (start.turns ?? 1) - 1);
    next ??= last.content;
  }
  const parentSession = typeof recorded.sessionId === 'string' ? recorded.sessionId : fork.parent;
  const sessionId = options.id ?? `${parentSession}-fork-${suffix()}`;
  const workflowId = conversationWorkflowId(fork.agent, sessionId);
  const input: ConversationInput = {
    agent: fork.agent,
    sessionId,
    runtime: { ...fork.runtime, sessionId },
    ...(recorded.idleTimeout !== undefined ? { idleTimeout: recorded.idleTimeout as string | number } : {}),
    ...numberOption('maxItersPerTurn', options.maxIters ?? recorded.maxItersPerTurn),
    ...numberOption('continueAsNewAfterEvents', recorded.continueAsNewAfterEvents),
    ...(fork.budget !== undefined ? { budget: fork.budget as Budget } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    fork: start,
  };
  checkStartInputSize(fork.agent, workflowId, input, fork.maxPayloadBytes);
  const handle = await client.start('conversationWorkflow', {
    ...common,
    workflowId,
    args: [input],
    typedSearchAttributes: [
      { key: AGENT_NAME, value: fork.agent },
      { key: AGENT_STATUS, value: 'idle' },
      { key: AGENT_SESSION_ID, value: sessionId },
      { key: AGENT_TURNS, value: start.turns ?? 0 },
      { key: AGENT_FORK_OF, value: fork.parent },
    ],
  } as Parameters<typeof client.start>[1]);
  if (next !== undefined) await handle.startUpdate(sendMessageUpdate, { args: [{ text: next }], waitForStage: 'ACCEPTED' });
  return { workflowId, runId: handle.firstExecutionRunId, conversation: true, sessionId };
}
