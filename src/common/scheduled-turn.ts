import type { Priority } from '@temporalio/common';
import { z } from 'zod';
import type { ConversationInput, TurnResult } from './conversation';

/**
 * The input of `scheduledTurnWorkflow`, the run a conversation schedule starts at each fire: the
 * conversation to reach (started by the first fire) and the message it sends as a turn.
 */
export interface ScheduledTurnInput {
  conversation: ConversationInput;
  text: string;
  priority?: Priority;
}

/** What the turn-sending activity gets: the input, and the update id (the fire's run) that makes a retried send the same turn. */
export interface ScheduledTurnRequest extends ScheduledTurnInput {
  updateId: string;
}

/** The fire's result: the conversation it reached and the turn's answer. */
export interface ScheduledTurnResult {
  conversationWorkflowId: string;
  turn: TurnResult;
}

/** The request parsed in the activity: a schedule's action is data anyone with access could edit. */
export const scheduledTurnRequestSchema = z.object({
  conversation: z.object({ agent: z.string().min(1), sessionId: z.string().min(1) }).passthrough(),
  text: z.string().min(1),
  updateId: z.string().min(1),
  priority: z.object({}).passthrough().optional(),
});
