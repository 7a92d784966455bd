import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { JsonSchema } from '../common/tools';
import type { ParseOutcome } from '../toolkit/validate-input';

// The server validates again; here we only catch what the model can fix, so formats and
// unknown keywords are not enforced and schemas are not checked against their meta-schema.
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false, validateSchema: false, logger: false } as const;
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function compile(schema: JsonSchema): ValidateFunction | undefined {
  const { $schema, $id: _id, ...rest } = schema;
  const is2020 = typeof $schema === 'string' && /2019-09|2020-12/.test($schema);
  try {
    if (is2020) return (draft2020 ??= new Ajv2020(AJV_OPTIONS)).compile(rest);
    return (draft7 ??= new Ajv(AJV_OPTIONS)).compile(rest);
  } catch {
    return undefined;
  }
}

function formatErrors(toolName: string, lines: string[]): string {
  return [`Error: Parameter validation failed for tool '${toolName}':`, ...lines, 'Please correct the parameters and try again.'].join('\n');
}

function ajvLine(error: ErrorObject): string {
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `- ${error.instancePath}/${missing}: is required`;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return `- ${error.instancePath}/${extra}: is not an accepted parameter`;
  }
  return `- ${error.instancePath || '/'}: ${error.message ?? error.keyword}`;
}

function checkRequired(schema: JsonSchema, input: Record<string, unknown>): string[] {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.filter((key): key is string => typeof key === 'string' && input[key] === undefined).map((key) => `- /${key}: is required`);
}

function withoutNulls(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/**
 * Validates a model's input against an MCP tool's JSON Schema with ajv. When the schema does not
 * compile, only required properties are checked and the server validates the rest.
 */
export function createMcpInputValidator(toolName: string, schema: JsonSchema): (input: Record<string, unknown>) => ParseOutcome<unknown> {
  let validate: ValidateFunction | undefined | null = null;
  return (input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      return { ok: false, message: `Error: Invalid arguments for tool '${toolName}': expected a JSON object.` };
    }
    if (validate === null) validate = compile(schema);
    const errorsFor = (value: Record<string, unknown>): string[] => {
      if (!validate) return checkRequired(schema, value);
      return validate(value) ? [] : (validate.errors ?? []).map(ajvLine);
    };
    const errors = errorsFor(input);
    if (errors.length === 0) return { ok: true, value: input };
    // Models often send null for optional fields they mean to leave out.
    const cleaned = withoutNulls(input);
    if (Object.keys(cleaned).length !== Object.keys(input).length && errorsFor(cleaned).length === 0) {
      return { ok: true, value: cleaned };
    }
    return { ok: false, message: formatErrors(toolName, errors) };
  };
}
