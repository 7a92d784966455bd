import type { AgentDescriptor } from '../../common/agent';
import type { RunBudget } from '../../common/budget';
import type { ConversationWindow } from '../../common/memory';
import type { AgentEvent } from '../../common/events';
import type { Message, TokenUsage } from '../../common/messages';
import type { RuntimeContext } from '../../common/runtime';
import type { ParentRun, QueuedInput, RunStatus, SubAgentUsage } from '../../common/run';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { WaitNotice } from '../../common/contracts/wait-notice';
import type { ForkOrigin } from '../../common/fork';

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
   * batches are in the conversation. Only workflows/calls/ changes them.
   */
  readonly calls: readonly ToolCallRecord[];
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
  /** Notices to the webhooks being delivered now (not carried: handed over when the run ends, see notices-handover.ts). */
  noticesInFlight: WaitNotice[];
  /** User messages added while the run works (steering), not yet sent to the model; carried over continue-as-new. */
  queuedInputs: QueuedInput[];
  /** Inputs added so far: the last one's position. */
  inputsAdded: number;
  /** Answers refused for not fitting the agent's output schema (see typed-answer.ts); carried over continue-as-new. */
  outputRetries: number;
  /** The run's budget, when it has one (see budget.ts); carried over continue-as-new. */
  budget?: RunBudget;
  /** Set when the run is a fork of another run. */
  fork?: ForkOrigin;
  /** What the run last published in its memo about its waiting calls (see calls/publish-waits.ts). */
  publishedWaits?: string;
}

export function initialMessages(descriptor: AgentDescriptor, prompt: string): Message[] {
  return [
    { role: 'system', content: descriptor.instructions },
    { role: 'user', content: prompt },
  ];
}

/** `{ cost }` when the agent has a price table, else nothing: no price table, no cost field. */
export function costField(state: RunState): { cost?: number } {
  return state.descriptor.model.prices ? { cost: state.cost } : {};
}
