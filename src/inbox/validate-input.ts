import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../common/tools';
import type { FieldErrors } from './schema-form';

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false, logger: false });
const compiled = new WeakMap<JsonSchema, ValidateFunction | undefined>();

function compile(schema: JsonSchema): ValidateFunction | undefined {
  if (compiled.has(schema)) return compiled.get(schema);
  const { $schema: _schema, $id: _id, ...rest } = schema;
  let validate: ValidateFunction | undefined;
  try {
    validate = ajv.compile(rest);
  } catch {
    validate = undefined;
  }
  compiled.set(schema, validate);
  return validate;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required') path.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') path.push((error.params as { additionalProperty: string }).additionalProperty);
  return path.join('.');
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not an argument of this tool';
  return error.message ?? error.keyword;
}

/**
 * Edited arguments checked against the tool's JSON Schema before anything is sent; the run checks
 * them again with the tool's own schema. A schema ajv cannot compile leaves the check to the run.
 */
export function validateAgainstSchema(schema: JsonSchema | undefined, input: unknown): FieldErrors {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { '': 'the arguments must be a JSON object' };
  const validate = schema ? compile(schema) : undefined;
  if (!validate || validate(input)) return {};
  const errors: FieldErrors = {};
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    errors[field] ??= messageOf(error);
  }
  return errors;
}
