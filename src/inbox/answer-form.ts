import { z } from 'zod';
import type { JsonSchema } from '../common/tools';
import { FIELD_PREFIX, readFields, type FieldErrors } from './schema-form';
import { validateAgainstSchema } from './validate-input';

/** The fields of an answer form besides the tool's own arguments (`arg:*`). */
const answerFieldsSchema = z
  .object({
    csrf: z.string().max(200).optional(),
    action: z.enum(['approve', 'approve-json', 'deny', 'submit'], { errorMap: () => ({ message: 'action must be approve, approve-json, deny or submit' }) }),
    remember: z.literal('session').optional(),
    reason: z.string().max(20_000).optional(),
    raw: z.string().max(1_000_000).optional(),
    output: z.string().max(1_000_000).optional(),
    is_error: z.literal('true').optional(),
    /** What the page showed: the call's arguments digest and rules version, sent with the answer so the run refuses it when either changed. */
    digest: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    rules_version: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  })
  .strict();

export type AnswerRequest =
  | { action: 'approve'; input?: Record<string, unknown>; remember: boolean }
  | { action: 'deny'; reason?: string }
  | { action: 'submit'; output: string; isError: boolean };

/** What an answer was given for (see AgentRun's Answerer). */
export interface BoundTo {
  argumentsDigest?: string;
  rulesVersion?: string;
}

export type ParsedAnswer =
  | { ok: true; csrf?: string; request: AnswerRequest; bound?: BoundTo }
  | { ok: false; csrf?: string; message: string; errors?: FieldErrors; input?: unknown; rawJson?: string };

/** JSON with every object's keys sorted: a form lists fields in the schema's order, the model in its own. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node && typeof node === 'object' && !Array.isArray(node) ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => a.localeCompare(b))) : node,
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * A posted answer form, parsed: edited arguments are read by the tool's schema and checked
 * against it, so an edit it refuses comes back with each field's error and nothing is sent.
 */
export function parseAnswerForm(form: URLSearchParams, schema: JsonSchema | undefined, original: unknown): ParsedAnswer {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (!name.startsWith(FIELD_PREFIX)) fields[name] = value;
  const parsed = answerFieldsSchema.safeParse(fields);
  const csrf = typeof fields.csrf === 'string' ? fields.csrf : undefined;
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : `${issue.path.join('.') || 'form'}: ${issue.message}`,
    );
    return { ok: false, csrf, message: `The form was not understood: ${reasons.join('; ')}` };
  }
  const body = parsed.data;
  const bound: BoundTo = { ...(body.digest ? { argumentsDigest: body.digest } : {}), ...(body.rules_version ? { rulesVersion: body.rules_version } : {}) };
  const answer = answerOf(form, body, schema, original, csrf);
  return answer.ok && Object.keys(bound).length > 0 ? { ...answer, bound } : answer;
}

function answerOf(form: URLSearchParams, body: z.output<typeof answerFieldsSchema>, schema: JsonSchema | undefined, original: unknown, csrf: string | undefined): ParsedAnswer {
  switch (body.action) {
    case 'deny':
      return { ok: true, csrf, request: { action: 'deny', ...(body.reason?.trim() ? { reason: body.reason.trim() } : {}) } };
    case 'submit':
      return { ok: true, csrf, request: { action: 'submit', output: body.output ?? '', isError: body.is_error === 'true' } };
    case 'approve-json': {
      let input: unknown;
      try {
        input = JSON.parse(body.raw ?? '');
      } catch (error) {
        return { ok: false, csrf, message: 'The edited arguments were not sent.', errors: { '': `not JSON: ${(error as Error).message}` }, rawJson: body.raw ?? '' };
      }
      const errors = validateAgainstSchema(schema, input);
      if (Object.keys(errors).length > 0) return { ok: false, csrf, message: "The edited arguments do not fit the tool's schema; nothing was sent.", errors, input, rawJson: body.raw ?? '' };
      return { ok: true, csrf, request: { action: 'approve', ...(sameJson(input, original) ? {} : { input: input as Record<string, unknown> }), remember: body.remember === 'session' } };
    }
    case 'approve': {
      if (!schema) return { ok: true, csrf, request: { action: 'approve', remember: body.remember === 'session' } };
      const read = readFields(schema, form);
      const errors = { ...validateAgainstSchema(schema, read.input), ...read.errors };
      if (Object.keys(errors).length > 0) return { ok: false, csrf, message: "The edited arguments do not fit the tool's schema; nothing was sent.", errors, input: read.input };
      return { ok: true, csrf, request: { action: 'approve', ...(sameJson(read.input, original) ? {} : { input: read.input }), remember: body.remember === 'session' } };
    }
  }
}
