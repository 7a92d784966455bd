import { z } from 'zod';
import { truncateText } from '../truncate-text';
import { MAX_NAME_CHARS, MAX_REASON_CHARS } from './limits';

/**
 * One schema per message a run takes from outside. Objects are strict: a misspelt field is an
 * error the sender hears about, never an option silently left out.
 */

const callId = z.string().min(1, 'callId must not be empty').max(MAX_NAME_CHARS);
const remember = z.literal('session');
/** Edited arguments replace the model's, so they are a JSON object like any tool input. */
const editedInput = z.record(z.unknown());
const reason = z
  .string()
  .transform((text) => truncateText(text, MAX_REASON_CHARS));
const groupNames = z.array(z.string().min(1).max(MAX_NAME_CHARS)).max(1_000);

export const approveSchema = z.object({ callId, input: editedInput.optional(), remember: remember.optional() }).strict();
export const denySchema = z.object({ callId, reason: reason.optional() }).strict();
/** No argument at all (the Temporal CLI without --input) means `{}`. */
export const approveAllSchema = z
  .object({ remember: remember.optional() })
  .strict()
  .optional()
  .transform((value) => value ?? {});
export const submitToolResultSchema = z.object({ callId, output: z.string(), isError: z.boolean().optional() }).strict();
export const setGroupsSchema = z.object({ activate: groupNames.optional(), deactivate: groupNames.optional() }).strict();
export const decideSchema = z
  .object({
    callId,
    approved: z.boolean({ required_error: 'approved is required (true or false)', invalid_type_error: 'approved must be true or false' }),
    reason: reason.optional(),
    input: editedInput.optional(),
    remember: remember.optional(),
  })
  .strict();
/** `events`: the sequence number to read after; none means from the start. */
export const eventsAfterSchema = z
  .number()
  .int()
  .nonnegative()
  .nullish()
  .transform((value) => value ?? 0);
/** `conversation`: how many messages, from the first. */
export const messageCountSchema = z.number().int().nonnegative();
/** `conversationPage`: a range of messages and a byte budget for the answer. */
export const conversationPageSchema = z
  .object({
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative(),
    maxBytes: z.number().int().min(1024).max(2 * 1024 * 1024),
  })
  .strict()
  .refine((page) => page.to >= page.from, { message: 'to must not be below from' });

/** Every handler by its Temporal name, for the docs test and the bad-payload tests. */
export const PAYLOAD_SCHEMAS = {
  approve: approveSchema,
  deny: denySchema,
  approveAll: approveAllSchema,
  submitToolResult: submitToolResultSchema,
  setGroups: setGroupsSchema,
  decide: decideSchema,
  submitToolResultUpdate: submitToolResultSchema,
  events: eventsAfterSchema,
  conversation: messageCountSchema,
  conversationPage: conversationPageSchema,
} as const;

export type HandlerName = keyof typeof PAYLOAD_SCHEMAS;
