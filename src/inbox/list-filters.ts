import { z } from 'zod';
import type { WaitingItem } from './waiting-items';

/** How old a waiting call may be to be listed: newer than one of these. */
export const AGES = { '1h': 3_600_000, '1d': 86_400_000, '7d': 7 * 86_400_000 } as const;

const text = () =>
  z
    .string()
    .max(200)
    .transform((value) => value.trim())
    .optional()
    .transform((value) => (value ? value : undefined));

/** The list's query string: every filter optional; a wrong value is a 400 naming it. */
export const listFiltersSchema = z
  .object({
    agent: text(),
    user: text(),
    kind: z.enum(['approval', 'external', '']).optional().transform((value) => (value ? value : undefined)),
    age: z.enum(['1h', '1d', '7d', '']).optional().transform((value) => (value ? value : undefined)),
  })
  .strict();

export type ListFilters = z.output<typeof listFiltersSchema>;

export function applyFilters(items: WaitingItem[], filters: ListFilters, now = Date.now()): WaitingItem[] {
  return items.filter(
    (item) =>
      (!filters.agent || item.agent === filters.agent || item.topAgent === filters.agent) &&
      (!filters.user || item.startedBy === filters.user) &&
      (!filters.kind || item.kind === filters.kind) &&
      (!filters.age || now - Date.parse(item.since) <= AGES[filters.age]),
  );
}
