import type { AgentDescriptor } from '../common/agent';
import type { ConversationWindow } from '../common/memory';
import { newestMessages } from './newest-messages';
import type { AgentEvent } from '../common/events';
import { emptyUsage, type Message, type TokenUsage } from '../common/messages';
import type { RuntimeContext } from '../common/runtime';
import type { AgentRunState, AgentWorkflowInput, CarriedState, ParentRun, RunStatus, SubAgentUsage } from '../common/run';
import type { ToolCallRecord } from '../common/tool-call-record';
import { allPending, carriedRecords, migrateCarriedAnswers, visibleRecords } from './call-records';

/** The whole state of one run, kept in the workflow. Plain data only: it is carried over continue-as-new. */
export interface RunState {
  agent: string;
  descriptor: AgentDescriptor;
  runtime: RuntimeContext;
  maxIters: number;
  messages: Message[];
  usage: TokenUsage;
  /** Sum of the priced calls' costs; reported only when the agent has a price table. */
  cost: number;
  iterations: number;
  activeGroups: string[];
  sessionRules: string[];
  status: RunStatus;
  currentStep: string;
  /**
   * One record per tool call of the model reply being handled (its phase, decisions, edits,
   * submissions and times), and the answers that came for calls not seen yet. Calls of earlier
   * batches are in the conversation.
   */
  calls: ToolCallRecord[];
  events: AgentEvent[];
  nextEventSeq: number;
  emptyReplies: number;
  continuedRuns: number;
  /** Search attributes written on status changes only (see status.ts); decided per run by a patch. */
  sparseSearchAttributes: boolean;
  /** How many messages of the conversation the last model call was sent: the next one carries only those after. */
  modelSeen: number;
  /** With a context budget, once compacted: what stands for the oldest messages in model calls. */
  window?: ConversationWindow;
  /** The last model call's reported tokens and the conversation's length after its reply: the base of the next estimate. */
  lastCall?: { promptTokens: number; completionTokens: number; messageCount: number };
  /** Set once the run has logged that its state is too large to continue as new. */
  warnedCarrySize?: boolean;
  /** Set when this run is a sub-agent: the run (and call) it answers. */
  parent?: ParentRun;
  /** Per sub-agent call: what it cost. */
  subAgents: SubAgentUsage[];
  output?: string;
}

export function initialMessages(descriptor: AgentDescriptor, prompt: string): Message[] {
  return [
    { role: 'system', content: descriptor.instructions },
    { role: 'user', content: prompt },
  ];
}

export function createRunState(input: AgentWorkflowInput, descriptor: AgentDescriptor): RunState {
  const carried = input.carried;
  return {
    agent: input.agent,
    descriptor,
    runtime: input.runtime ?? {},
    maxIters: input.options?.maxIters ?? descriptor.maxIters,
    messages: carried?.messages ?? initialMessages(descriptor, input.prompt),
    usage: carried?.usage ?? emptyUsage(),
    cost: carried?.cost ?? 0,
    iterations: carried?.iterations ?? 0,
    activeGroups: carried?.activeGroups ?? descriptor.groups.filter((g) => g.active).map((g) => g.name),
    sessionRules: carried?.sessionRules ?? input.parent?.sessionRules ?? [],
    status: 'running',
    currentStep: 'starting',
    calls: migrateCarriedAnswers(carried),
    events: carried?.events ?? [],
    nextEventSeq: carried?.nextEventSeq ?? 1,
    emptyReplies: 0,
    continuedRuns: carried?.continuedRuns ?? 0,
    sparseSearchAttributes: false,
    modelSeen: carried?.modelSeen ?? 0,
    ...(carried?.window ? { window: carried.window } : {}),
    ...(input.parent ? { parent: input.parent } : {}),
    subAgents: carried?.subAgents ?? [],
  };
}

export function carryState(state: RunState): CarriedState {
  return {
    descriptor: state.descriptor,
    messages: state.messages,
    usage: state.usage,
    cost: state.cost,
    iterations: state.iterations,
    activeGroups: state.activeGroups,
    sessionRules: state.sessionRules,
    events: state.events,
    nextEventSeq: state.nextEventSeq,
    calls: carriedRecords(state),
    continuedRuns: state.continuedRuns + 1,
    modelSeen: state.modelSeen,
    ...(state.window ? { window: state.window } : {}),
    ...(state.subAgents.length > 0 ? { subAgents: state.subAgents } : {}),
  };
}

/** `{ cost }` when the agent has a price table, else nothing: no price table, no cost field. */
export function costField(state: RunState): { cost?: number } {
  return state.descriptor.model.prices ? { cost: state.cost } : {};
}

export function snapshotState(state: RunState): AgentRunState {
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
  };
}

/** What the `state` query answers before the agent's description has arrived. */
export function startingState(input: AgentWorkflowInput): AgentRunState {
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
    currentStep: 'starting',
    lastToolCalls: [],
  };
}
