import type { ToolResultState } from './messages';
import type { PermissionDecision } from './permissions';
import type { ApprovalDecision, PendingCall, SubmittedResult } from './run';

/**
 * Where one tool call stands. A call of the model's reply is `checking` (validation, the tool's
 * own check, the permission engine), then waits for a person (`awaiting_approval`) or an outside
 * result (`awaiting_external`), or is `queued` behind its batch, `running` on a worker, `in_sub_agent`
 * (an agent tool's child run, with what that run waits for), until it is `settled`. `unseen` holds
 * an answer that arrived before the model's reply named the call.
 *
 * Only the workflow's calls/ module changes a record (its transitions are checked against one
 * table, src/workflows/calls/phases.ts); everywhere else a record is read-only.
 */
export type ToolCallPhase =
  | { readonly name: 'unseen' }
  | { readonly name: 'checking' }
  | { readonly name: 'awaiting_approval' }
  | { readonly name: 'awaiting_external'; readonly reason?: string }
  | { readonly name: 'queued' }
  | { readonly name: 'running' }
  | { readonly name: 'in_sub_agent'; readonly workflowId: string; readonly agent: string; readonly waiting: readonly PendingCall[] }
  | { readonly name: 'settled'; readonly state: ToolResultState };

export type ToolCallPhaseName = ToolCallPhase['name'];

/** What a call waits for from outside: a person's decision, or a result submitted for it. */
export type WaitKind = 'approval' | 'external';

/** One tool call of the run's current batch: everything the run knows and decided about it. */
export interface ToolCallRecord {
  readonly callId: string;
  /** What the call is: absent for a tool call of the model's reply; `budget` for the call a run makes itself to ask for more budget. */
  readonly kind?: 'budget';
  /** The tool's name; '' while the call is unseen. */
  readonly tool: string;
  /** Its input (after edits a person approved); absent while unseen. */
  readonly input?: unknown;
  readonly phase: ToolCallPhase;
  /** The permission engine's decision (why it asks, the rule that would allow it). */
  readonly permission?: PermissionDecision;
  /** A person's answer to its approval. */
  readonly answer?: ApprovalDecision;
  /** The result submitted for it from outside. */
  readonly submission?: SubmittedResult;
  /** When it started waiting for approval. */
  readonly askedAt?: string;
  /** When it started waiting for an external result. */
  readonly externalAt?: string;
  /** An earlier call of this run with the same tool and arguments that already ran (told to whoever approves it). */
  readonly repeats?: RepeatedCall;
  /** Runs with `answer-rules`: the version of the rules it was asked under (rules-version.ts). */
  readonly rulesVersion?: string;
  /** Runs with `answer-rules`: who may answer it now, when someone is named (after an escalation or a delegation, the new ones). */
  readonly approvers?: readonly string[];
  /** Reminders sent while it waits. */
  readonly reminded?: number;
  /** Set once it was escalated. */
  readonly escalated?: true;
  /** Who handed it on, last. */
  readonly delegatedBy?: string;
  /** When a worker began running it (workflow time, ms): its finished event's duration counts from here. */
  readonly startedAt?: number;
}

/** The earlier call a call repeats: its id and the start of its result. */
export interface RepeatedCall {
  callId: string;
  preview: string;
}

/** How a waiting call ended: approved, denied, its result submitted, or no answer in time. */
export type CallOutcome = 'approved' | 'denied' | 'submitted' | 'timed_out';

/**
 * How a waiting call was answered, in one shape wherever it is shown: derived from the record's
 * answer, it is what the call's event, its webhook notice and the inbox say.
 */
export interface CallAnswer {
  outcome: CallOutcome;
  /** Who answered, as the sender named them. */
  answeredBy?: string;
  /** The reason a person gave (approvals). */
  reason?: string;
  /** The arguments a person put in place of the model's before approving. */
  editedInput?: unknown;
  at: string;
}

/** The answer a record holds for its wait of this kind, as a CallAnswer; undefined while it has none. */
export function callAnswerOf(record: Pick<ToolCallRecord, 'answer' | 'submission'>, kind: WaitKind): CallAnswer | undefined {
  if (kind === 'external') {
    const submission = record.submission;
    if (!submission) return undefined;
    return { outcome: 'submitted', at: submission.submittedAt, ...(submission.answeredBy !== undefined ? { answeredBy: submission.answeredBy } : {}) };
  }
  const decision = record.answer;
  if (!decision) return undefined;
  return {
    outcome: decision.approved ? 'approved' : 'denied',
    at: decision.decidedAt,
    ...(decision.answeredBy !== undefined ? { answeredBy: decision.answeredBy } : {}),
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.approved && decision.input !== undefined ? { editedInput: decision.input } : {}),
  };
}
