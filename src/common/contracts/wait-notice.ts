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
  kind: 'approval' | 'external';
  input?: unknown;
  /** Why the permission engine asked (approvals). */
  reason?: string;
  /** Answered: approved, denied or submitted, and by whom when the answer named someone. */
  outcome?: 'approved' | 'denied' | 'submitted' | 'timed_out';
  answeredBy?: string;
  at: string;
}
