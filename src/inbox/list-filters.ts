import { z } from 'zod';
import type { WaitingCall } from '../common/contracts/published-waits';
import { pageTokenSchema } from '../client/waiting-calls';

/** How old a waiting call may be to be listed: newer than one of these. */
export const AGES = { '1h': 3_600_000, '1d': 86_400_000, '7d': 7 * 86_400_000 } as const;

const text = () =>
  z
    .string()
    .max(200)
    .transform((value) => value.trim())
    .optional()
    .transform((value) => (value ? value : undefined));

/** The list's query string: every filter optional, and where the page starts; a wrong value is a 400 naming it. */
export const listFiltersSchema = z
  .object({
    agent: text(),
    user: text(),
    kind: z.enum(['approval', 'external', '']).optional().transform((value) => (value ? value : undefined)),
    age: z.enum(['1h', '1d', '7d', '']).optional().transform((value) => (value ? value : undefined)),
    after: z
      .string()
      .optional()
      .refine((token) => token === undefined || pageTokenSchema.safeParse(token).success, 'is not a page of this inbox'),
  })
  .strict();

export type ListFilters = z.output<typeof listFiltersSchema>;

export function applyFilters(calls: WaitingCall[], filters: ListFilters, now = Date.now()): WaitingCall[] {
  return calls.filter(
    (call) =>
      (!filters.agent || call.agent === filters.agent || call.top?.agent === filters.agent) &&
      (!filters.user || call.startedBy === filters.user) &&
      (!filters.kind || call.kind === filters.kind) &&
      (!filters.age || now - Date.parse(call.since) <= AGES[filters.age]),
  );
}

/** The query string of these filters (and a page), as the list's links carry it. */
export function filtersQuery(filters: ListFilters, after?: string): string {
  const entries = Object.entries({ agent: filters.agent, user: filters.user, kind: filters.kind, age: filters.age, after }).filter(([, value]) => value) as [string, string][];
  return entries.length > 0 ? `?${new URLSearchParams(entries).toString()}` : '';
}
