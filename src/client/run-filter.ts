import type { RunStatus } from '../common/run';

/** The visibility filter of runs of one agent and/or status (quotes removed: the values sit in a query). */
export function runFilter(options: { agent?: string; status?: RunStatus }): string | undefined {
  const unquoted = (value: string) => value.replace(/'/g, '');
  const filters = [
    ...(options.agent ? [`AgentName = '${unquoted(options.agent)}'`] : []),
    ...(options.status ? [`AgentStatus = '${unquoted(options.status)}'`] : []),
  ];
  return filters.length > 0 ? filters.join(' AND ') : undefined;
}
