import type { ZodError, ZodTypeAny } from 'zod';

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** The model's raw argument text → a JSON object, or a message the model can act on. */
export function parseToolArguments(toolName: string, raw: string): ParseOutcome<Record<string, unknown>> {
  const text = raw.trim() === '' ? '{}' : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      message:
        `Error: Invalid arguments for tool '${toolName}': the arguments are not valid JSON ` +
        `(${(error as Error).message}). Send the arguments as one JSON object matching the tool's schema.`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `Error: Invalid arguments for tool '${toolName}': expected a JSON object.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Optional fields the model sent as null are treated as absent, as most models do this. */
function dropNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

export function formatZodError(toolName: string, error: ZodError): string {
  const lines = error.issues.map((issue) => `- /${issue.path.join('/')}: ${issue.message}`);
  return [
    `Error: Parameter validation failed for tool '${toolName}':`,
    ...lines,
    'Please correct the parameters and try again.',
  ].join('\n');
}

export function validateToolInput(toolName: string, schema: ZodTypeAny, value: Record<string, unknown>): ParseOutcome<unknown> {
  let parsed = schema.safeParse(value);
  if (!parsed.success) {
    const withoutNulls = schema.safeParse(dropNulls(value));
    if (withoutNulls.success) parsed = withoutNulls;
  }
  if (!parsed.success) return { ok: false, message: formatZodError(toolName, parsed.error) };
  return { ok: true, value: parsed.data };
}
