import type { AgentEventBody } from '../../common/events';
import type { WaitNotice } from '../../common/contracts/wait-notice';
import type { PermissionDecider } from '../../telemetry/run-metrics';
import type { RunStatus } from '../../common/run';

/** A notice for the worker's webhooks, before the run adds who it is and when. */
export type NoticeBody = Omit<WaitNotice, 'workflowId' | 'agent' | 'at'>;

/**
 * What one transition of a call did, as data: a transition changes the record and returns this;
 * applyChange (the only place that acts on it) records its events, sets the run's status and the
 * Web UI's details, publishes what waits, sends its notices and counts it, in one fixed order.
 */
export interface CallChange {
  /** The run's events, in the order they happened. */
  events?: AgentEventBody[];
  /** Messages from outside the run could not use, each logged and kept as an `input_rejected` event. */
  rejected?: { handler: string; reason: string; callId?: string }[];
  /** The run's status from now on. */
  status?: RunStatus;
  /** What waits changed: the Web UI's details (and, in runs that publish it, the memo) follow. */
  waitsChanged?: boolean;
  /** What the run's sub-agents wait for changed: its status and details follow while it waits on nothing of its own. */
  subAgentWaitsChanged?: boolean;
  notices?: NoticeBody[];
  /** Permission decisions to count and put on the trace. */
  decisions?: { callId: string; tool: string; behavior: 'allow' | 'deny' | 'ask'; by: PermissionDecider; reason?: string }[];
  /** Runs now waiting on approvals, for the gauge: +1 when a batch starts waiting, -1 when it stops. */
  approvalWaits?: 1 | -1;
  /**
   * Runs described before `ordered-call-effects` recorded this change's notices before its
   * status (their commands must replay in that order).
   */
  noticesFirstInOlderRuns?: boolean;
}
