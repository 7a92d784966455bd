import type { JsonSchema } from '../common/tools';

/**
 * The fields of a tool input that its JSON Schema forbids (`additionalProperties: false`), as
 * paths: the model was told the schema, and a zod object would otherwise drop such fields without
 * a word, so a misspelt or invented argument would go unnoticed.
 */
export function unknownKeys(schema: JsonSchema | undefined, value: unknown, path = ''): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items && !Array.isArray(items) ? value.flatMap((item, index) => unknownKeys(items, item, `${path}/${index}`)) : [];
  }
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const closed = schema.additionalProperties === false && schema.properties !== undefined;
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const here = path ? `${path}/${key}` : key;
    if (key in properties) return unknownKeys(properties[key], child, here);
    return closed ? [here] : [];
  });
}

/** The message the model reads when it sent fields the schema does not have. */
export function unknownKeysMessage(toolName: string, keys: readonly string[], schema: JsonSchema): string {
  const allowed = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  return (
    `Error: Invalid arguments for tool '${toolName}': unknown field(s) ${keys.map((key) => `'${key}'`).join(', ')}; ` +
    `the tool takes ${allowed.map((key) => `'${key}'`).join(', ') || 'no fields'}. Send only the fields of its schema.`
  );
}
