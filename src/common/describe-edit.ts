/** What a person changed in a call's arguments, field by field, as in `amount 120 → 130`. */
export function describeEdit(before: unknown, after: unknown): string {
  const shown = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'nothing';
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  if (!isObject(before) || !isObject(after)) return `${shown(before)} → ${shown(after)}`;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes = keys
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${key} ${key in before ? shown(before[key]) : '(none)'} → ${key in after ? shown(after[key]) : '(removed)'}`);
  return changes.length > 0 ? changes.join(', ') : 'no change';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The model's arguments (JSON text) as a value, or the text itself when it is not JSON. */
export function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
