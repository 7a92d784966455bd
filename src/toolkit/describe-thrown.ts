import { redactSecrets } from '../common/redact-secrets';

/** What a thrown value may show of itself to the model, at most. */
export const MAX_THROWN_CHARS = 2_000;

const SECRET_FIELD = /key|secret|token|password|passwd|authorization|cookie|credential/i;

/** JSON.stringify's replacer: secret fields redacted, Maps and Sets as their contents, cycles cut. */
function redactedFields(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (typeof value === 'bigint') return value.toString();
    if (!value || typeof value !== 'object') return value;
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    if (value instanceof Map) return Object.fromEntries(value);
    if (value instanceof Set) return [...value];
    if (Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '[redacted]' : v]));
  };
}

function json(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, redactedFields());
  } catch {
    return undefined;
  }
}

/**
 * A tool may throw anything: an Error, a string, a provider's error object. The model gets its
 * message, or the value itself as JSON (secret-looking fields and key-like strings redacted,
 * bounded), never `[object Object]`.
 */
export function describeThrown(value: unknown): string {
  let text: string;
  if (value instanceof Error) text = value.message;
  else if (typeof value === 'string') text = value;
  else if (value === undefined || typeof value === 'function' || typeof value === 'symbol') text = String(value);
  else text = json(value) ?? String(value);
  const clean = redactSecrets(text);
  return clean.length > MAX_THROWN_CHARS ? `${clean.slice(0, MAX_THROWN_CHARS)}… [${clean.length - MAX_THROWN_CHARS} more characters]` : clean;
}
