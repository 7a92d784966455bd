/** Names some frameworks and providers put on continuation fragments; never a tool's real name. */
const placeholderName = /^\s*$|^__.*__$/;

export function isRealToolName(name: unknown): name is string {
  return typeof name === 'string' && !placeholderName.test(name);
}

/** Tool-call arguments as text; some providers send them as an already parsed object. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** The id of a call the provider sent without one; the workflow replaces it when the run already used it. */
export function positionalCallId(position: number): string {
  return `call_${position}`;
}
