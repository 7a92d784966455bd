import type { ZodTypeAny } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { JsonSchema } from '../common/tools';

/**
 * The JSON Schema the model sees for a tool's input. References are inlined (several
 * OpenAI-compatible servers reject `$ref`), and preset parameters are removed because the
 * worker fills them in.
 */
export function toolInputSchema(input: ZodTypeAny, hiddenKeys: readonly string[] = []): JsonSchema {
  const schema = zodToJsonSchema(input as never, { $refStrategy: 'none', target: 'jsonSchema7' }) as JsonSchema;
  delete schema.$schema;
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
