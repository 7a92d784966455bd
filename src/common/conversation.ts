import type { ForkStart } from './fork';
import { defineUpdate } from '@temporalio/workflow';
import { durationMs, durationProblem } from './duration';
import type { Budget } from './budget';
import type { TokenUsage } from './messages';
import type { CarriedState, FinalStatus } from './run';
import type { RuntimeContext } from './runtime';

/** How long a conversation waits for a message before it ends itself, unless told otherwise. */
export const DEFAULT_IDLE_TIMEOUT = '30 days';

/** The idle timeout in ms (the default when unset); throws, naming the value, when it is not a positive duration. */
export function idleTimeoutMs(value: ConversationInput['idleTimeout']): number {
  const ms = durationMs(value ?? DEFAULT_IDLE_TIMEOUT);
  if (ms === undefined) throw new TypeError(`${durationProblem('idleTimeout', value)}.`);
  return ms;
}

/** What starts a conversation (and, with `carried`, continues it as new between turns). */
export interface ConversationInput {
  agent: string;
  sessionId: string;
  runtime?: RuntimeContext;
  /** A duration (`'30d'`, `'2 hours'`, milliseconds): no message for this long ends the conversation. */
  idleTimeout?: string | number;
  /** Iterations per turn; the agent's maxIters when unset. */
  maxItersPerTurn?: number;
  /** Continue as new between turns once the history passes this many events (Temporal's suggestion also counts). */
  continueAsNewAfterEvents?: number;
  /** The conversation's budget, spanning its turns (and its runs continued as new). */
  budget?: Budget;
  /** The model the conversation calls in place of the agent's (its fallbacks are not used). */
  model?: string;
  /** Set only by continue-as-new. */
  carried?: CarriedConversation;
  /** Set when the conversation is a fork of another conversation or run: what it starts from. */
  fork?: ForkStart;
}

export interface CarriedConversation extends CarriedState {
  /** Turns answered so far. */
  turns: number;
}

/** The `sendMessage` update's payload. */
export interface SendMessageRequest {
  text: string;
}

/** One turn's answer, the `sendMessage` update's result. */
export interface TurnResult<TData = unknown> {
  /** 1 for the conversation's first message. */
  turn: number;
  /** `failed` when the turn could not finish (the model failed for good); the conversation goes on. */
  status: FinalStatus | 'failed';
  output: string;
  /** This turn's typed answer, for an agent with an output schema (absent when the turn failed). */
  data?: TData;
  /** This turn's tokens; the conversation's total is in `state`. */
  usage: TokenUsage;
  /** This turn's cost; only when the agent has a price table. */
  cost?: number;
  /** This turn's iterations. */
  iterations: number;
}

export type ConversationEndReason = 'ended' | 'idle';

/** The conversation workflow's result, and the `endConversation` update's. */
export interface ConversationResult {
  reason: ConversationEndReason;
  turns: number;
  usage: TokenUsage;
  cost?: number;
}

export const sendMessageUpdate = defineUpdate<TurnResult, [SendMessageRequest]>('sendMessage');
/** Ends the conversation once the messages already sent are answered; later messages are refused. */
export const endConversationUpdate = defineUpdate<{ turns: number }, [Record<string, never>]>('endConversation');

/** The workflow id of an agent's conversation for one session. */
export function conversationWorkflowId(agent: string, sessionId: string): string {
  return `conversation-${agent}-${sessionId}`;
}
