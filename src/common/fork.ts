import { z } from 'zod';
import type { Message, TokenUsage } from './messages';
import type { QueuedInput } from './run';

/** Which run a fork came from, and after which of its events (`seq`). */
export interface ForkOrigin {
  workflowId: string;
  at: number;
  /** The agent of the run forked (a fork of a sub-agent's run is a run of that agent). */
  agent: string;
}

/**
 * What a fork starts from: the conversation of the run it came from as it stood after event
 * `origin.at` (the client reads it from that run's events and messages), and what it changes.
 * A fork always goes on with a model call: calls of the step forked that had not finished by then
 * are answered as not run, so nothing that ran before the fork point runs again.
 */
export interface ForkStart {
  origin: ForkOrigin;
  messages: Message[];
  usage: TokenUsage;
  cost?: number;
  iterations: number;
  /** The active tool groups at the fork point; absent when the run recorded no change of them (the agent's defaults). */
  activeGroups?: string[];
  sessionRules: string[];
  /** Inputs added to the run before the fork point that its model had not read yet. */
  queuedInputs?: QueuedInput[];
  /** Conversations: the turns answered before the fork point. */
  turns?: number;
}

/** The result of a call that had not finished when the run was forked. */
export const NOT_RUN_BEFORE_FORK = 'Not run: the run was forked before this call finished. Call the tool again if it is still needed.';

const usage = z.object({ promptTokens: z.number().nonnegative(), completionTokens: z.number().nonnegative(), totalTokens: z.number().nonnegative() });
const toolCall = z.object({ id: z.string().min(1), name: z.string(), arguments: z.string() });
const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }).passthrough(),
  z.object({ role: z.literal('user'), content: z.string() }).passthrough(),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), toolCalls: z.array(toolCall).optional() }).passthrough(),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string(), state: z.enum(['success', 'error', 'denied', 'cancelled']) }).passthrough(),
]);

/** A fork's start as the workflow checks it: a start input is a boundary too. Not exported: the workflow code is shared and frozen, and zod caches inside a schema. */
const forkStartSchema = z
  .object({
    origin: z.object({ workflowId: z.string().min(1), at: z.number().int().nonnegative(), agent: z.string().min(1) }).strict(),
    messages: z.array(message).min(1, 'a fork needs the conversation it starts from'),
    usage,
    cost: z.number().nonnegative().optional(),
    iterations: z.number().int().nonnegative(),
    activeGroups: z.array(z.string()).optional(),
    sessionRules: z.array(z.string()),
    queuedInputs: z.array(z.object({ position: z.number().int(), text: z.string(), addedBy: z.string().optional() }).strict()).optional(),
    turns: z.number().int().nonnegative().optional(),
  })
  .strict();

/** The fork start parsed, or an error naming what is wrong. */
export function checkedForkStart(raw: unknown): ForkStart {
  const parsed = forkStartSchema.safeParse(raw);
  if (parsed.success) return parsed.data as ForkStart;
  const issue = parsed.error.issues[0]!;
  throw new Error(`fork.${issue.path.join('.')}: ${issue.message}`);
}
