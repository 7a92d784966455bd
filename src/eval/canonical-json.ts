import { canonicalJson } from '../common/canonical-json';

export { canonicalJson };

/** A value shortened for one line of a report. */
export function shortJson(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
