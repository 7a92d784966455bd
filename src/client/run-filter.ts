import type { RunStatus } from '../common/run';

/** A value as a visibility query's string literal (quotes removed: the query language has no escape every server takes). */
function literal(value: string): string {
  return `'${value.replace(/['"\\]/g, '')}'`;
}

/** The visibility filter of runs of one agent, status, forked from one run and/or started by one schedule. */
export function runFilter(options: { agent?: string | undefined; status?: RunStatus | undefined; forkOf?: string | undefined; schedule?: string | undefined }): string | undefined {
  const filters = [
    ...(options.agent ? [`AgentName = ${literal(options.agent)}`] : []),
    ...(options.status ? [`AgentStatus = ${literal(options.status)}`] : []),
    ...(options.forkOf ? [`AgentForkOf = ${literal(options.forkOf)}`] : []),
    // Temporal's own search attribute on every run a schedule starts (fires, triggers, backfills).
    ...(options.schedule ? [`TemporalScheduledById = ${literal(options.schedule)}`] : []),
  ];
  return filters.length > 0 ? filters.join(' AND ') : undefined;
}

/** The visibility filter of these runs, by workflow id. */
export function runsByIdFilter(ids: readonly string[]): string {
  return `WorkflowId IN (${ids.map(literal).join(', ')})`;
}
