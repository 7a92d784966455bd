import type { CallAnswer, WaitKind } from '../tool-call-record';

/**
 * What a run tells the worker's webhooks about one of its calls: it started waiting for a person
 * (an approval or an external result), a reminder or an escalation fell due while it waits, it was
 * handed to other approvers, or it was answered. The run passes the call's arguments; the worker
 * sends them only to webhooks configured to include them.
 */
export interface WaitNotice {
  event: 'waiting' | 'reminded' | 'escalated' | 'delegated' | 'answered';
  workflowId: string;
  agent: string;
  callId: string;
  tool: string;
  kind: WaitKind;
  input?: unknown;
  /** Why the permission engine asked (approvals). */
  reason?: string;
  /** Who may answer the call now (approvals with approvers): after an escalation or a delegation, the new ones. */
  approvers?: string[];
  /** Reminded: which reminder this is (1 for the first). */
  reminder?: number;
  /** Delegated: who handed the call on (the identity that answered the delegation). */
  delegatedBy?: string;
  /** Answered: how, and by whom when the answer named someone (the call's CallAnswer). */
  outcome?: CallAnswer['outcome'];
  answeredBy?: CallAnswer['answeredBy'];
  at: string;
}
