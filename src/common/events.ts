import type { TokenUsage, ToolResultState } from './messages';
import type { PermissionBehavior, PolicyVerdict } from './permissions';
import type { Spend } from './budget';
import type { RunStatus, SubAgentUsage } from './run';

export type AgentEventBody =
  | { type: 'iteration_started'; iteration: number }
  | { type: 'model_call_started'; iteration: number; model: string }
  | {
      type: 'model_call_finished';
      iteration: number;
      model: string;
      usage: TokenUsage;
      toolCalls: number;
      text: string;
      /** Only when the agent has a price for this model. */
      cost?: number;
    }
  | { type: 'tool_call_started'; callId: string; tool: string; input: unknown }
  /** `input`: what the tool ran with, when its check read the model's arguments into something else (defaults, coercions). */
  | { type: 'tool_call_finished'; callId: string; tool: string; state: ToolResultState; durationMs: number; preview: string; input?: unknown }
  | {
      type: 'permission_requested';
      callId: string;
      tool: string;
      input: unknown;
      reason: string;
      suggestedRule?: string;
      /** An earlier call of the run with the same tool and arguments that already ran. */
      repeats?: string;
      /** The approval policy that could not decide and asks a person (its reason is `reason`). */
      policy?: PolicyVerdict;
      /** Runs with `answer-rules`: the version of the rules it is asked under, which an answer sends back (rules-version.ts). */
      rulesVersion?: string;
    }
  | {
      type: 'permission_decided';
      callId: string;
      tool: string;
      behavior: PermissionBehavior;
      by: 'rules' | 'user' | 'timeout';
      reason: string;
      answeredBy?: string;
      /** The arguments a person put in place of the model's when approving (the call runs with these). */
      input?: unknown;
      /** With `by: 'rules'`: the approval policy that decided (name, version, outcome, reason). */
      policy?: PolicyVerdict;
    }
  | { type: 'external_requested'; callId: string; tool: string; input: unknown; reason?: string }
  | { type: 'external_submitted'; callId: string; tool: string; isError: boolean; preview: string; answeredBy?: string }
  /** A user message added while the run works or waits (steering); the next model call sees it. */
  | { type: 'input_added'; position: number; text: string; addedBy?: string }
  /** The model call in flight was cancelled for an added input (an agent with `steering: 'interrupt'`) and is made again with it. */
  | { type: 'model_call_interrupted'; iteration: number; inputs: number }
  /** An answer that did not fit the agent's output schema (`retry` counts them); it is fed back unless the run fails for it. */
  | { type: 'answer_refused'; iteration: number; problems: string[]; retry: number }
  /** A reminder fell due while the call waits for approval (`reminder`: 1 for the first); its approvers were told. */
  | { type: 'approval_reminded'; callId: string; tool: string; reminder: number; approvers?: string[] }
  /** Nobody answered in time: `approvers` (the call's, with the escalation's) may answer now, and were told. */
  | { type: 'approval_escalated'; callId: string; tool: string; approvers: string[] }
  /** An approver handed the call to `approvers`, who alone may answer it now. */
  | { type: 'approval_delegated'; callId: string; tool: string; approvers: string[]; delegatedBy?: string; reason?: string }
  /** An answer (a signal's) for a call that the run refused: from someone who may not answer, or for other arguments or rules. It changed nothing. */
  | { type: 'call_answer_refused'; callId: string; handler: string; reason: string; answeredBy?: string }
  /** A signal, or a decision or result for a call, that the run could not use; `handler` names the message. */
  | { type: 'input_rejected'; handler: string; reason: string; callId?: string }
  /**
   * The next model call would pass the run's budget: `spent` so far, `next` the call's estimate. With
   * `onReached: 'ask'` the run waits on the call `callId` (tool `$budget`, asked and decided like any
   * approval: `permission_requested`, `permission_decided`) for a person to allow `more`.
   */
  | { type: 'budget_reached'; limit: Spend; spent: Spend; next: Spend; onReached: 'ask' | 'stop'; callId?: string; more?: Spend }
  /** A person allowed more on the budget call `callId` (its `permission_decided` says when and how): the limit is now `limit`. */
  | { type: 'budget_raised'; callId: string; allowed: Spend; limit: Spend; answeredBy?: string }
  /** The active tool groups changed: by the model's `reset_equipped_tools` call or by a person's setGroups. */
  | { type: 'groups_changed'; active: string[]; by: 'model' | 'user' }
  /** An approval with `remember: 'session'` added a rule the rest of the run allows calls by. */
  | { type: 'session_rule_added'; rule: string; callId: string }
  /** The run is a fork of run `of`, started from its conversation as it stood after its event `after` (a seq). */
  | { type: 'run_forked'; of: string; after: number; agent: string; model?: string }
  | { type: 'run_finished'; status: RunStatus; output: string; usage?: TokenUsage; cost?: number }
  /** A tool call started a sub-agent run (a child workflow, `workflowId`). */
  | { type: 'subagent_started'; callId: string; tool: string; agent: string; workflowId: string; depth: number; task: string }
  | {
      type: 'subagent_finished';
      callId: string;
      agent: string;
      workflowId: string;
      status: SubAgentUsage['status'];
      usage: TokenUsage;
      cost?: number;
      preview: string;
    }
  /** What a running sub-agent (or one of its own) waits for now; `calls` is empty once nothing waits. */
  | { type: 'subagent_waiting'; workflowId: string; agent: string; calls: { callId: string; tool: string; kind: 'approval' | 'external'; workflowId: string }[] }
  /** A conversation's message, as its turn starts. */
  | { type: 'turn_started'; turn: number; text: string }
  | { type: 'turn_finished'; turn: number; status: string; output: string; usage: TokenUsage; iterations: number; cost?: number }
  | { type: 'conversation_ended'; reason: string; turns: number }
  /** The oldest messages were summarised for the model (a context budget, or the model said the context was too long). */
  | {
      type: 'conversation_compacted';
      reason: 'budget' | 'context_too_long';
      /** Messages the summary stands for in this compaction. */
      summarized: number;
      /** The first message still sent as it is. */
      keptFrom: number;
      estimatedTokens: number;
      summaryChars: number;
      model: string;
      usage: TokenUsage;
      cost?: number;
    };

export type AgentEventType = AgentEventBody['type'];

export type AgentEvent = AgentEventBody & { seq: number; at: string };
