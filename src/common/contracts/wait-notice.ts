import type { CallAnswer, WaitKind } from '../tool-call-record';

/**
 * What a run tells the worker's webhooks about one of its calls: it started waiting for a person
 * (an approval or an external result), or it was answered. The run passes the call's arguments;
 * the worker sends them only to webhooks configured to include them.
 */
export interface WaitNotice {
  event: 'waiting' | 'answered';
  workflowId: string;
  agent: string;
  callId: string;
  tool: string;
  kind: WaitKind;
  input?: unknown;
  /** Why the permission engine asked (approvals). */
  reason?: string;
  /** Answered: how, and by whom when the answer named someone (the call's CallAnswer). */
  outcome?: CallAnswer['outcome'];
  answeredBy?: CallAnswer['answeredBy'];
  at: string;
}
