import { z } from 'zod';
import { truncateText } from '../truncate-text';
import { MAX_NAME_CHARS, MAX_REASON_CHARS } from './limits';
import { approvalFactsShape } from '../approval-facts';

/**
 * One schema per message a run takes from outside. Objects are strict: a misspelt field is an
 * error the sender hears about, never an option silently left out.
 *
 * Built on first use (payloadSchema): in workflow code every cached run holds its own instance of
 * each module, so schemas made at load would cost every run, parked ones included, for messages
 * most runs never get.
 */

const callId = () => z.string().min(1, 'callId must not be empty').max(MAX_NAME_CHARS);
const remember = () => z.literal('session').optional();
/** Edited arguments replace the model's, so they are a JSON object like any tool input. */
const editedInput = () => z.record(z.unknown()).optional();
const reason = () =>
  z
    .string()
    .transform((text) => truncateText(text, MAX_REASON_CHARS))
    .optional();
/** Who answered (a person's name or address, as the sender knows it), recorded with the answer. */
const answeredBy = () => z.string().min(1, 'answeredBy must not be empty').max(MAX_NAME_CHARS).optional();
/** What the answerer saw: the arguments' digest and the rules' version a waiting call publishes (optional: older senders leave them out). */
const digest = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/, `${what} must be 64 lowercase hex digits (the waiting call's own, as published)`)
    .optional();
const bound = () => ({ argumentsDigest: digest('argumentsDigest'), rulesVersion: digest('rulesVersion') });
const groupNames = () => z.array(z.string().min(1).max(MAX_NAME_CHARS)).max(1_000).optional();
const submitToolResult = () => z.object({ callId: callId(), output: z.string(), isError: z.boolean().optional(), answeredBy: answeredBy() }).strict();

/** Every handler by its Temporal name, for the docs test and the bad-payload tests. */
const BUILDERS = {
  approve: () => z.object({ callId: callId(), input: editedInput(), remember: remember(), answeredBy: answeredBy(), ...bound() }).strict(),
  deny: () => z.object({ callId: callId(), reason: reason(), answeredBy: answeredBy(), ...bound() }).strict(),
  /** No argument at all (the Temporal CLI without --input) means `{}`. */
  approveAll: () =>
    z
      .object({ remember: remember() })
      .strict()
      .optional()
      .transform((value) => value ?? {}),
  submitToolResult,
  setGroups: () => z.object({ activate: groupNames(), deactivate: groupNames() }).strict(),
  decide: () =>
    z
      .object({
        callId: callId(),
        approved: z.boolean({ required_error: 'approved is required (true or false)', invalid_type_error: 'approved must be true or false' }),
        reason: reason(),
        input: editedInput(),
        remember: remember(),
        answeredBy: answeredBy(),
        ...bound(),
      })
      .strict(),
  /** An approver hands a waiting call to others (`to`: identities or `group:NAME`), who may answer it from then on. */
  delegate: () =>
    z
      .object({
        callId: callId(),
        to: z.array(z.string().min(1, 'a delegate must not be empty').max(MAX_NAME_CHARS)).min(1, 'to needs at least one name').max(100),
        answeredBy: answeredBy(),
        reason: reason(),
        ...bound(),
      })
      .strict(),
  submitToolResultUpdate: submitToolResult,
  /** `events`: the sequence number to read after; none means from the start. */
  events: () =>
    z
      .number()
      .int()
      .nonnegative()
      .nullish()
      .transform((value) => value ?? 0),
  /** `conversation`: how many messages, from the first. */
  conversation: () => z.number().int().nonnegative(),
  /** `conversationPage`: a range of messages and a byte budget for the answer. */
  conversationPage: () =>
    z
      .object({
        from: z.number().int().nonnegative(),
        to: z.number().int().nonnegative(),
        maxBytes: z.number().int().min(1024).max(2 * 1024 * 1024),
      })
      .strict()
      .refine((page) => page.to >= page.from, { message: 'to must not be below from' }),
  /** From a sub-agent run to its parent (workflow code sends it; anyone could). */
  subAgentWaiting: () =>
    z
      .object({
        workflowId: z.string().min(1).max(MAX_NAME_CHARS),
        agent: z.string().min(1).max(MAX_NAME_CHARS),
        pending: z
          .array(
            z
              .object({
                callId: callId(),
                tool: z.string().min(1).max(MAX_NAME_CHARS),
                kind: z.enum(['approval', 'external']),
                input: z.unknown(),
                decision: z.object({ behavior: z.enum(['allow', 'deny', 'ask']), reason: z.string() }).passthrough().optional(),
                since: z.string(),
                workflowId: z.string().min(1).max(MAX_NAME_CHARS),
                agent: z.string().min(1).max(MAX_NAME_CHARS),
                repeats: z.object({ callId: callId(), preview: z.string().max(1_000) }).strict().optional(),
                budget: z.literal(true).optional(),
                ...approvalFactsShape(MAX_NAME_CHARS),
              })
              .strict(),
          )
          .max(1_000),
      })
      .strict(),
  /** From a worker that does not serve the run's agent and left a step of it to another. */
  workerRefused: () =>
    z
      .object({
        agent: z.string().min(1).max(MAX_NAME_CHARS),
        worker: z.string().min(1).max(MAX_NAME_CHARS),
        serves: z.array(z.string().max(MAX_NAME_CHARS)).max(1_000),
        activity: z.string().min(1).max(MAX_NAME_CHARS),
      })
      .strict(),
  /** A user message for a run in flight: the next model call sees it (steering). */
  addInput: () => z.object({ text: z.string().min(1, 'text must not be empty'), addedBy: z.string().min(1, 'addedBy must not be empty').max(MAX_NAME_CHARS).optional() }).strict(),
  /** A conversation's next message. */
  sendMessage: () => z.object({ text: z.string().min(1, 'text must not be empty') }).strict(),
  /** No argument at all means `{}`. */
  endConversation: () => z.object({}).strict().optional(),
};

export type HandlerName = keyof typeof BUILDERS;
export type PayloadSchema<H extends HandlerName> = ReturnType<(typeof BUILDERS)[H]>;
export type Payload<H extends HandlerName> = z.output<PayloadSchema<H>>;
/** A payload as its sender writes it (before the schema's defaults and transforms). */
export type PayloadInput<H extends HandlerName> = z.input<PayloadSchema<H>>;

export const HANDLER_NAMES = Object.keys(BUILDERS) as HandlerName[];

const built = new Map<HandlerName, z.ZodTypeAny>();

/** The schema of one handler's payload, built once per module instance. */
export function payloadSchema<H extends HandlerName>(handler: H): PayloadSchema<H> {
  let schema = built.get(handler);
  if (!schema) {
    schema = BUILDERS[handler]();
    built.set(handler, schema);
  }
  return schema as PayloadSchema<H>;
}
