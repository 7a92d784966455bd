import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentEvent } from './events';
import type { Message } from './messages';
import type { ApprovalDecision, PendingCall, StateQueryAnswer, SubmittedResult } from './run';
import type { PayloadInput } from './boundary/payload-schemas';

/**
 * The requests a run takes, as their senders write them: each derived from its payload schema
 * (boundary/payload-schemas.ts), which the run parses them by, so the two cannot drift apart.
 */
/** `{ callId, input?, remember?, answeredBy? }`: edited arguments are validated against the tool's schema again before the call runs. */
export type ApproveRequest = PayloadInput<'approve'>;
export type DenyRequest = PayloadInput<'deny'>;
/** One payload for the `decide` update: `{ callId, approved, reason?, input?, remember?, answeredBy? }`. */
export type DecideRequest = PayloadInput<'decide'>;
/** `{ callId, to, answeredBy?, reason?, argumentsDigest?, rulesVersion? }`: an approver hands the call to others. */
export type DelegateRequest = PayloadInput<'delegate'>;
export type ApproveAllRequest = NonNullable<PayloadInput<'approveAll'>>;
export type SubmitToolResultRequest = PayloadInput<'submitToolResult'>;
export type SetGroupsRequest = PayloadInput<'setGroups'>;

/** `{ text, addedBy? }`: a user message for a run in flight, which its next model call sees. */
export type AddInputRequest = PayloadInput<'addInput'>;

/** What `addInput` answers: the input's number in the run (1 for its first) and how it reaches the model. */
export interface AddedInput {
  position: number;
  /** `queued`: the next model call sees it; `interrupting`: the model call in flight is cancelled and made again with it. */
  delivery: 'queued' | 'interrupting';
}

/** A sub-agent run tells its parent what it (and its own sub-agents) waits for; sent on every change. */
export interface SubAgentWaitingReport {
  workflowId: string;
  agent: string;
  pending: PendingCall[];
}

/** A worker left a step of the run to another: it does not serve the run's agent (sent by that worker). */
export type WorkerRefusal = PayloadInput<'workerRefused'>;

export const approveSignal = defineSignal<[ApproveRequest]>('approve');
export const denySignal = defineSignal<[DenyRequest]>('deny');
export const approveAllSignal = defineSignal<[ApproveAllRequest?]>('approveAll');
export const submitToolResultSignal = defineSignal<[SubmitToolResultRequest]>('submitToolResult');
export const setGroupsSignal = defineSignal<[SetGroupsRequest]>('setGroups');
export const subAgentWaitingSignal = defineSignal<[SubAgentWaitingReport]>('subAgentWaiting');
export const workerRefusedSignal = defineSignal<[WorkerRefusal]>('workerRefused');

export const decideUpdate = defineUpdate<ApprovalDecision, [DecideRequest]>('decide');
/** What a delegation answers: who may answer the call now. */
export interface DelegatedCall {
  callId: string;
  approvers: string[];
  delegatedBy?: string;
}
export const delegateUpdate = defineUpdate<DelegatedCall, [DelegateRequest]>('delegate');
export const submitToolResultUpdate = defineUpdate<SubmittedResult, [SubmitToolResultRequest]>('submitToolResultUpdate');
export const addInputUpdate = defineUpdate<AddedInput, [AddInputRequest]>('addInput');

export const stateQuery = defineQuery<StateQueryAnswer>('state');
export const eventsQuery = defineQuery<AgentEvent[], [number?]>('events');
/** The first N messages of the conversation: model calls read it instead of carrying it in history. */
export const conversationQuery = defineQuery<Message[], [number]>('conversation');

export interface ConversationPageRequest {
  from: number;
  to: number;
  /** Stop before the answer would pass this many bytes of JSON (at least one message is returned). */
  maxBytes: number;
}

/** Messages `from`…`to` of the conversation, as many as fit in `maxBytes`: a read under Temporal's payload limit. */
export const conversationPageQuery = defineQuery<Message[], [ConversationPageRequest]>('conversationPage');
