import type { ContentBlock, ToolCall, ToolResultState } from '../messages';
import type { AttemptBudget } from './attempt-budget';
import type { PermissionDecision, PermissionMode } from '../permissions';
import type { RuntimeContext } from '../runtime';

/** A tool call on the worker: checking it (prepare, edited input) and running it. */

export interface PrepareToolCallsInput {
  agent: string;
  calls: ToolCall[];
  mode: PermissionMode;
  sessionRules: string[];
  runtime: RuntimeContext;
  /** A tool missing on this worker: `report` it (outcome `unavailable`) or `fail` retryably. */
  onMissing?: 'report' | 'fail';
}

/** What the worker decided about one call before anything runs. */
export type PreparedCall =
  | { callId: string; tool: string; outcome: 'result'; result: ToolCallResult; decision?: PermissionDecision }
  | { callId: string; tool: string; outcome: 'run'; input: unknown; decision: PermissionDecision }
  | { callId: string; tool: string; outcome: 'ask'; input: unknown; decision: PermissionDecision }
  | { callId: string; tool: string; outcome: 'external'; input: unknown }
  | { callId: string; tool: string; outcome: 'unavailable' };

export interface ValidateEditedInputInput {
  agent: string;
  tool: string;
  input: unknown;
}

export type ValidateEditedInputOutput = { ok: true; input: unknown } | { ok: false; message: string };

export interface ExecuteToolInput {
  agent: string;
  tool: string;
  callId: string;
  input: unknown;
  runtime: RuntimeContext;
  maxResultChars: number;
  /** The call's own attempts (see AttemptBudget); absent in calls scheduled before it existed. */
  budget?: AttemptBudget;
  /**
   * Check the call first, as prepareToolCalls does, and run it only when the rules allow it: the
   * model's call (its arguments are then the input) and the permission settings of the run.
   */
  check?: { call: ToolCall; mode: PermissionMode; sessionRules: string[] };
}

export interface ToolCallResult {
  content: string;
  state: ToolResultState;
  blocks?: ContentBlock[];
}

export type RanToolOutput = { kind: 'result'; result: ToolCallResult } | { kind: 'suspended'; reason: string };

/** A checked call: what the check decided, and what the run gave when the check let it run. */
export type CheckedToolOutput = { kind: 'checked'; prepared: PreparedCall; ran?: RanToolOutput };

export type ExecuteToolOutput = RanToolOutput | CheckedToolOutput;
