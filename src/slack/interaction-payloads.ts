import { z } from 'zod';
import { ACTIONS } from './message-blocks';
import { EDIT_CALLBACK } from './edit-modal';

const id = z.string().min(1).max(255);

/** A button's value, and a modal's private_metadata: the call's address (and the message's, for the modal). */
export const callAddressSchema = z.object({ w: z.string().min(1).max(1_000), c: z.string().min(1).max(256) }).strict();
export const modalMetadataSchema = callAddressSchema.extend({ ch: id.optional(), ts: id.optional() }).strict();

/** The JSON a field of the payload holds, parsed by its schema (a malformed one is the payload's issue, not a throw). */
function jsonOf<T extends z.ZodTypeAny>(schema: T) {
  return z.string().transform((text, context): z.output<T> => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      context.addIssue({ code: 'custom', message: 'is not JSON' });
      return z.NEVER;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ ...issue, message: `${issue.path.join('.')}: ${issue.message}` });
      return z.NEVER;
    }
    return parsed.data;
  });
}

const blockActionsSchema = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id }).passthrough(),
  trigger_id: z.string().min(1).max(1_000),
  channel: z.object({ id }).passthrough().optional(),
  container: z.object({ message_ts: id.optional(), channel_id: id.optional() }).passthrough().optional(),
  message: z.object({ ts: id }).passthrough().optional(),
  actions: z
    .array(z.object({ action_id: z.enum([ACTIONS.approve, ACTIONS.deny, ACTIONS.edit]), value: jsonOf(callAddressSchema) }).passthrough())
    .length(1, 'one action per click'),
});

const inputStateSchema = z
  .object({ value: z.string().max(1_000_000).nullish(), selected_option: z.object({ value: z.string().max(1_000) }).passthrough().nullish() })
  .passthrough();

const viewSubmissionSchema = z.object({
  type: z.literal('view_submission'),
  user: z.object({ id }).passthrough(),
  view: z
    .object({
      callback_id: z.literal(EDIT_CALLBACK),
      private_metadata: jsonOf(modalMetadataSchema),
      state: z.object({ values: z.record(z.record(inputStateSchema)) }).passthrough(),
    })
    .passthrough(),
});

const viewClosedSchema = z.object({ type: z.literal('view_closed'), user: z.object({ id }).passthrough() }).passthrough();

/** Every interaction this endpoint answers; anything else is a 400. */
export const interactionSchema = z.discriminatedUnion('type', [blockActionsSchema, viewSubmissionSchema, viewClosedSchema]);

export type Interaction = z.output<typeof interactionSchema>;
export type BlockActions = z.output<typeof blockActionsSchema>;
export type ViewSubmission = z.output<typeof viewSubmissionSchema>;

export type ParsedInteraction = { ok: true; interaction: Interaction } | { ok: true; sslCheck: true } | { ok: false; message: string };

/** An interaction's body as Slack posts it (`payload=<JSON>`, form-encoded), parsed; never throws. */
export function parseInteraction(body: string, contentType: string | undefined): ParsedInteraction {
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) return { ok: false, message: 'an interaction is posted as application/x-www-form-urlencoded' };
  const form = new URLSearchParams(body);
  if (form.get('ssl_check') === '1') return { ok: true, sslCheck: true };
  const payload = form.get('payload');
  if (payload === null) return { ok: false, message: 'the body has no payload' };
  const parsed = jsonOf(interactionSchema).safeParse(payload);
  if (!parsed.success) return { ok: false, message: `the payload is not an interaction this endpoint answers: ${parsed.error.issues.slice(0, 3).map((issue) => issue.message).join('; ')}` };
  return { ok: true, interaction: parsed.data };
}
