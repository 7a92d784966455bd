import type { JsonSchema } from '../common/tools';
import { html, type SafeHtml } from './html';

/** Errors by field path (`order_id`, `address.city`; '' for the whole input). */
export type FieldErrors = Record<string, string>;

export const FIELD_PREFIX = 'arg:';

type Schema = JsonSchema & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  return schema.type ?? (schema.properties ? 'object' : undefined);
}

/** Whether the form shows this schema as fields (an object of plain values); otherwise only the JSON view. */
export function hasFields(schema: JsonSchema | undefined): schema is JsonSchema {
  return schema !== undefined && typeOf(schema as Schema) === 'object' && (schema as Schema).properties !== undefined;
}

function scalarInput(name: string, schema: Schema, value: unknown, required: boolean): SafeHtml {
  const type = typeOf(schema);
  const id = `f-${name}`;
  if (schema.enum && schema.enum.every((option) => typeof option === 'string' || typeof option === 'number')) {
    return html`<select id="${id}" name="${FIELD_PREFIX}${name}">${required ? '' : html`<option value=""></option>`}${schema.enum.map(
      (option) => html`<option value="${String(option)}"${option === value ? html` selected` : ''}>${String(option)}</option>`,
    )}</select>`;
  }
  if (type === 'boolean') {
    const current = value === true ? 'true' : value === false ? 'false' : '';
    return html`<select id="${id}" name="${FIELD_PREFIX}${name}">${required ? '' : html`<option value=""></option>`}${['true', 'false'].map(
      (option) => html`<option value="${option}"${option === current ? html` selected` : ''}>${option}</option>`,
    )}</select>`;
  }
  if (type === 'number' || type === 'integer') {
    return html`<input id="${id}" type="text" inputmode="decimal" name="${FIELD_PREFIX}${name}" value="${value === undefined ? '' : String(value)}">`;
  }
  if (type === 'string') {
    return html`<input id="${id}" type="text" name="${FIELD_PREFIX}${name}" value="${typeof value === 'string' ? value : ''}">`;
  }
  // Arrays and anything else: JSON in a text area.
  return html`<textarea id="${id}" class="json" name="${FIELD_PREFIX}${name}" rows="3">${value === undefined ? '' : JSON.stringify(value, null, 2)}</textarea>`;
}

function fields(schema: Schema, value: Record<string, unknown>, errors: FieldErrors, path: string): SafeHtml[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const name = path ? `${path}.${key}` : key;
    const current = value[key];
    if (typeOf(property) === 'object' && property.properties) {
      const nested = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
      return html`<fieldset><legend>${key}</legend>${fields(property, nested, errors, name)}</fieldset>`;
    }
    const error = errors[name];
    return html`<div class="field${error ? ' invalid' : ''}" data-field="${name}">
  <label for="f-${name}">${key}${required.has(key) ? html` <span class="required" title="required">*</span>` : ''}</label>
  ${scalarInput(name, property, current, required.has(key))}
  ${property.description ? html`<small>${property.description}</small>` : ''}
  ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
</div>`;
  });
}

/** The fields of a tool's input, filled with `value`, with each field's error under it. */
export function schemaFields(schema: JsonSchema, value: unknown, errors: FieldErrors = {}): SafeHtml {
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return html`${fields(schema as Schema, object, errors, '')}`;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = next && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : (node[key] = {} as Record<string, unknown>);
  }
  node[path[path.length - 1]!] = value;
}

function schemaAt(schema: Schema, path: string[]): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const key of path) node = node?.properties?.[key];
  return node;
}

/** Reads the posted fields back into the tool's input by its schema: empty fields are left out, numbers and JSON parsed. */
export function readFields(schema: JsonSchema, form: URLSearchParams): { input: Record<string, unknown>; errors: FieldErrors } {
  const input: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [name, text] of form) {
    if (!name.startsWith(FIELD_PREFIX)) continue;
    const field = name.slice(FIELD_PREFIX.length);
    const path = field.split('.');
    const property = schemaAt(schema as Schema, path);
    if (!property) {
      errors[field] = 'not a field of this tool';
      continue;
    }
    if (text.trim() === '') continue;
    const type = property.enum ? undefined : typeOf(property);
    if (type === 'number' || type === 'integer') {
      const number = Number(text.trim());
      if (Number.isNaN(number)) errors[field] = `'${text}' is not a number`;
      else setPath(input, path, number);
    } else if (type === 'boolean') {
      setPath(input, path, text === 'true');
    } else if (type === 'string' || (property.enum && property.enum.includes(text))) {
      setPath(input, path, text);
    } else if (property.enum) {
      const number = Number(text);
      setPath(input, path, property.enum.includes(number) ? number : text);
    } else {
      try {
        setPath(input, path, JSON.parse(text));
      } catch (error) {
        errors[field] = `not JSON: ${(error as Error).message}`;
      }
    }
  }
  return { input, errors };
}
