/** JSON with every object's keys sorted, so two values that differ only in key order read the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value)) ?? 'undefined';
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .filter((key) => object[key] !== undefined)
      .sort()
      .map((key) => [key, sorted(object[key])]),
  );
}
