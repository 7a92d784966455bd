import type { ToolResultState } from './messages';
import type { PermissionDecision } from './permissions';
import type { ApprovalDecision, PendingCall, SubmittedResult } from './run';

/**
 * Where one tool call stands. A call of the model's reply is `checking` (validation, the tool's
 * own check, the permission engine), then waits for a person (`awaiting_approval`) or an outside
 * result (`awaiting_external`), or is `queued` behind its batch, `running` on a worker, `in_sub_agent`
 * (an agent tool's child run, with what that run waits for), until it is `settled`. `unseen` holds
 * an answer that arrived before the model's reply named the call.
 */
export type ToolCallPhase =
  | { name: 'unseen' }
  | { name: 'checking' }
  | { name: 'awaiting_approval' }
  | { name: 'awaiting_external'; reason?: string }
  | { name: 'queued' }
  | { name: 'running' }
  | { name: 'in_sub_agent'; workflowId: string; agent: string; waiting: PendingCall[] }
  | { name: 'settled'; state: ToolResultState };

export type ToolCallPhaseName = ToolCallPhase['name'];

/** One tool call of the run's current batch: everything the run knows and decided about it. */
export interface ToolCallRecord {
  callId: string;
  /** The tool's name; '' while the call is unseen. */
  tool: string;
  /** Its input (after edits a person approved); absent while unseen. */
  input?: unknown;
  phase: ToolCallPhase;
  /** The permission engine's decision (why it asks, the rule that would allow it). */
  permission?: PermissionDecision;
  /** A person's answer to its approval. */
  answer?: ApprovalDecision;
  /** The result submitted for it from outside. */
  submission?: SubmittedResult;
  /** When it started waiting for approval. */
  askedAt?: string;
  /** When it started waiting for an external result. */
  externalAt?: string;
}
