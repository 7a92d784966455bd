const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `3000`, `'3000'`, `'500ms'`, `'30s'`, `'1.5m'`, `'1h'` → milliseconds; undefined when unreadable. */
export function parseDurationMs(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value) : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
  return ms > 0 ? ms : undefined;
}
