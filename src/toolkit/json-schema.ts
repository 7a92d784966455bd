import type { ZodTypeAny } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { JsonSchema } from '../common/tools';

/** A zod schema as the model is sent it: references inlined (several OpenAI-compatible servers reject `$ref`). */
export function jsonSchemaOf(input: ZodTypeAny): JsonSchema {
  const { $schema: _ignored, ...schema } = zodToJsonSchema(input as never, { $refStrategy: 'none', target: 'jsonSchema7' }) as JsonSchema;
  return schema;
}

/** The JSON Schema the model sees for a tool's input; preset parameters are removed because the worker fills them in. */
export function toolInputSchema(input: ZodTypeAny, hiddenKeys: readonly string[] = []): JsonSchema {
  const schema = jsonSchemaOf(input);
  if (schema.type !== 'object') {
    throw new Error('A tool input must be a zod object schema (z.object({...})).');
  }
  const properties = { ...((schema.properties as Record<string, unknown>) ?? {}) };
  for (const key of hiddenKeys) delete properties[key];
  const required = ((schema.required as string[] | undefined) ?? []).filter((key) => !hiddenKeys.includes(key));
  const result: JsonSchema = { ...schema, properties };
  if (required.length > 0) result.required = required;
  else delete result.required;
  return result;
}
