interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The delay a provider asks for before the next attempt, in milliseconds: `retry-after-ms`, else
 * `retry-after` as seconds or as an HTTP date. Undefined when absent, unparsable or not in the future.
 */
export function retryAfterMs(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const millis = parseNumber(headers.get('retry-after-ms'));
  if (millis !== undefined) return positive(millis);

  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return positive(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : positive(date - now);
}

function parseNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

function positive(ms: number): number | undefined {
  return ms > 0 ? Math.ceil(ms) : undefined;
}
