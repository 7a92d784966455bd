import { msToNumber } from '@temporalio/common/lib/time';

/**
 * The one duration grammar of the project: Temporal's (the `ms` package), so `'30s'`, `'5 minutes'`,
 * `'1d'`, `'2 hours'` and milliseconds as a number or a string of digits mean the same everywhere
 * (agent and tool settings, tools.json, conversation idle timeouts). Positive and finite, else undefined.
 */
export function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  let ms: number;
  try {
    ms = msToNumber(value as Parameters<typeof msToNumber>[0]);
  } catch {
    return undefined;
  }
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : undefined;
}

export const DURATION_EXAMPLES = "e.g. '30s', '5 minutes', '2 hours', '1d' or milliseconds";

/** Why `value` is not a duration for `what`, or undefined when it is one. */
export function durationProblem(what: string, value: unknown): string | undefined {
  if (value === undefined || durationMs(value) !== undefined) return undefined;
  return `${what} ${JSON.stringify(value)} is not a duration (${DURATION_EXAMPLES}; more than zero)`;
}
