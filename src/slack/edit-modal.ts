import type { JsonSchema } from '../common/tools';
import { FIELD_PREFIX, hasFields, readFields, type FieldErrors } from '../inbox/schema-form';
import { validateAgainstSchema } from '../inbox/validate-input';

/** The modal's callback id; its private_metadata is the call's address (callValue) with the message's. */
export const EDIT_CALLBACK = 'durable_agent_edit';
/** The block of the whole input as JSON, when the schema is not an object of fields. */
export const RAW_BLOCK = 'raw_json';
const ACTION = 'value';
/** Slack's limit on a modal's blocks. */
const MAX_BLOCKS = 100;

type Schema = JsonSchema & { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; description?: string };

/** The type the inbox's form reads a field by (its first non-null type; an object when it has properties). */
function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  return schema.type ?? (schema.properties ? 'object' : undefined);
}

interface Leaf {
  path: string;
  schema: Schema;
  value: unknown;
  required: boolean;
}

/** The fields the inbox's form shows: nested objects opened up, each leaf by its dotted path. */
function leaves(schema: Schema, value: unknown, path = ''): Leaf[] {
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const name = path ? `${path}.${key}` : key;
    if (typeOf(property) === 'object' && property.properties) return leaves(property, object[key], name);
    return [{ path: name, schema: property, value: object[key], required: required.has(key) && !path }];
  });
}

const plain = (text: string, max = 150) => ({ type: 'plain_text', text: text.length > max ? `${text.slice(0, max - 1)}…` : text });

function option(value: string) {
  return { text: plain(value, 75), value };
}

function element(leaf: Leaf): Record<string, unknown> {
  const { schema, value } = leaf;
  const type = typeOf(schema);
  if (schema.enum && schema.enum.length > 0 && schema.enum.every((choice) => typeof choice === 'string' || typeof choice === 'number')) {
    const current = schema.enum.find((choice) => choice === value);
    return { type: 'static_select', action_id: ACTION, options: schema.enum.slice(0, 100).map((choice) => option(String(choice))), ...(current !== undefined ? { initial_option: option(String(current)) } : {}) };
  }
  if (type === 'boolean') {
    return { type: 'static_select', action_id: ACTION, options: [option('true'), option('false')], ...(typeof value === 'boolean' ? { initial_option: option(String(value)) } : {}) };
  }
  if (type === 'string' || type === 'number' || type === 'integer') {
    const text = value === undefined || value === null ? '' : String(value);
    return { type: 'plain_text_input', action_id: ACTION, ...(text ? { initial_value: text } : {}), ...(type === 'string' && text.length > 150 ? { multiline: true } : {}) };
  }
  // Arrays and anything else: JSON, as the inbox's form shows them.
  return { type: 'plain_text_input', action_id: ACTION, multiline: true, ...(value !== undefined ? { initial_value: JSON.stringify(value, null, 2) } : {}) };
}

/** The Edit modal: one input per field of the tool's JSON Schema, filled with the arguments the message showed; or the arguments as JSON. */
export function editModal(tool: string, schema: JsonSchema | undefined, input: unknown, metadata: string): Record<string, unknown> {
  const fields = hasFields(schema) ? leaves(schema as Schema, input) : [];
  const blocks =
    fields.length > 0 && fields.length <= MAX_BLOCKS - 1
      ? fields.map((leaf) => ({
          type: 'input',
          block_id: `${FIELD_PREFIX}${leaf.path}`,
          optional: !leaf.required,
          label: plain(leaf.path, 2000),
          element: element(leaf),
          ...(leaf.schema.description ? { hint: plain(leaf.schema.description, 2000) } : {}),
        }))
      : [{ type: 'input', block_id: RAW_BLOCK, label: plain('Arguments (JSON)'), element: { type: 'plain_text_input', action_id: ACTION, multiline: true, initial_value: JSON.stringify(input ?? {}, null, 2) } }];
  return {
    type: 'modal',
    callback_id: EDIT_CALLBACK,
    private_metadata: metadata,
    title: plain('Edit and approve', 24),
    submit: plain('Approve', 24),
    close: plain('Cancel', 24),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `Arguments of \`${tool}\`: the run checks them again before it runs the tool.` } }, ...blocks],
  };
}

/** One input's state as view_submission carries it. */
export interface InputState {
  value?: string | null;
  selected_option?: { value: string } | null;
}

export type ReadEdit = { ok: true; input: unknown } | { ok: false; errors: Record<string, string> };

/** The block an error of `field` is shown under: its own, else the first input of the modal. */
function blockOf(field: string, blockIds: string[]): string {
  const own = `${FIELD_PREFIX}${field}`;
  return blockIds.includes(own) ? own : blockIds.includes(RAW_BLOCK) ? RAW_BLOCK : blockIds[0] ?? RAW_BLOCK;
}

/** Errors by field as the modal shows them (Slack's `response_action: 'errors'`, by block id). */
export function modalErrors(errors: FieldErrors, blockIds: string[]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const block = blockOf(field, blockIds);
    const text = field && !blockIds.includes(`${FIELD_PREFIX}${field}`) ? `${field}: ${message}` : message;
    shown[block] = shown[block] ? `${shown[block]}; ${text}` : text;
  }
  return shown;
}

/**
 * The submitted modal read back into the tool's input the way the inbox reads its form (readFields),
 * and checked against the schema (validateAgainstSchema); the run checks it again.
 */
export function readEdit(schema: JsonSchema | undefined, values: Record<string, Record<string, InputState>>): ReadEdit {
  const blockIds = Object.keys(values);
  const textOf = (state: InputState | undefined) => state?.selected_option?.value ?? state?.value ?? '';
  if (values[RAW_BLOCK]) {
    let input: unknown;
    try {
      input = JSON.parse(textOf(values[RAW_BLOCK][ACTION]));
    } catch (error) {
      return { ok: false, errors: { [RAW_BLOCK]: `not JSON: ${(error as Error).message}` } };
    }
    const errors = validateAgainstSchema(schema, input);
    return Object.keys(errors).length > 0 ? { ok: false, errors: modalErrors(errors, blockIds) } : { ok: true, input };
  }
  if (!schema) return { ok: false, errors: modalErrors({ '': 'the tool has no schema to edit by' }, blockIds) };
  const form = new URLSearchParams();
  for (const [blockId, actions] of Object.entries(values)) if (blockId.startsWith(FIELD_PREFIX)) form.append(blockId, textOf(actions[ACTION]));
  const read = readFields(schema, form);
  const errors = { ...validateAgainstSchema(schema, read.input), ...read.errors };
  return Object.keys(errors).length > 0 ? { ok: false, errors: modalErrors(errors, blockIds) } : { ok: true, input: read.input };
}

/**
 * The run's refusal of edited arguments in the modal: each `- /path: message` line the tool's
 * validation names goes under its field, the whole reason under the first field.
 */
export function refusalErrors(reason: string, blockIds: string[]): Record<string, string> {
  const errors: FieldErrors = {};
  for (const match of reason.matchAll(/^- \/([^:\n]*): (.+)$/gm)) errors[match[1]!.split('/').join('.')] = match[2]!;
  const shown = modalErrors(errors, blockIds);
  const first = blockIds[0] ?? RAW_BLOCK;
  shown[first] = shown[first] ? `${shown[first]} (${reason})` : reason;
  return shown;
}
