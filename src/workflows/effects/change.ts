import type { SearchAttributeUpdatePair } from '@temporalio/common';
import type { PublishedWaits } from '../../common/contracts/published-waits';
import type { WaitNotice } from '../../common/contracts/wait-notice';
import type { AgentEventBody } from '../../common/events';
import type { RunStatus } from '../../common/run';
import type { PermissionDecider } from '../../telemetry/run-metrics';

/** A notice for the worker's webhooks, before the run adds who it is and when. */
export type NoticeBody = Omit<WaitNotice, 'workflowId' | 'agent' | 'at'>;

/** Something from outside the run could not use, and why. */
export interface RejectedInput {
  handler: string;
  reason: string;
  callId?: string;
}

/**
 * What a step of the run did that the world sees, as data: the rest of the workflow code returns
 * this, and `apply` (the only code that writes outward) acts on it in one fixed order.
 */
export interface Change {
  /** Messages from outside the run could not use, each logged and kept as an `input_rejected` event. */
  rejected?: RejectedInput[];
  /** The run's events, in the order they happened. */
  events?: AgentEventBody[];
  /** The run's status from now on (mirrored into the `AgentStatus` search attribute when it changes). */
  status?: RunStatus;
  /** More search attributes written in the status's upsert (a conversation's turn count). */
  attributes?: SearchAttributeUpdatePair[];
  /** The agent's name and status as search attributes, unless the client set them when it started the run. */
  announce?: true;
  /** The step shown on the run's page in the Web UI, and what it waits on. */
  step?: { text: string; details?: string };
  /** What the run waits on, published in its memo. */
  waits?: PublishedWaits;
  notices?: NoticeBody[];
  /** Permission decisions to count and put on the trace. */
  decisions?: { callId: string; tool: string; behavior: 'allow' | 'deny' | 'ask'; by: PermissionDecider; reason?: string }[];
  /** Runs now waiting on approvals, for the gauge: +1 when a batch starts waiting, -1 when it stops. */
  approvalWaits?: 1 | -1;
  /** The tokens so far, to the `AgentTotalTokens` search attribute (see status.ts for how often). */
  tokens?: true;
}
