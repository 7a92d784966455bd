import type { AgentScheduleDescription, AgentScheduleSummary } from '../../client/schedules';
import { alignedTable } from '../../text/table';

const at = (date: Date | undefined) => (date ? date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

function seconds(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export function specText(spec: AgentScheduleDescription['spec']): string {
  if (spec.cron) return `cron ${spec.cron.map((expression) => `'${expression}'`).join(', ')} (UTC)`;
  return spec.everyMs !== undefined ? `every ${seconds(spec.everyMs)}` : 'a spec made elsewhere';
}

/** `schedule list`'s table. */
export function scheduleTable(schedules: AgentScheduleSummary[]): string[] {
  const rows = schedules.map((schedule) => [
    schedule.id,
    schedule.agent,
    schedule.workflowType === 'scheduledTurnWorkflow' ? 'conversation' : 'run',
    schedule.paused ? `paused${schedule.note ? ` (${schedule.note})` : ''}` : 'active',
    at(schedule.nextFireTimes[0]),
  ]);
  return alignedTable([['SCHEDULE', 'AGENT', 'FIRES', 'STATE', 'NEXT FIRE'], ...rows]);
}

/** `schedule describe`'s lines. */
export function describeLines(description: AgentScheduleDescription, webUiUrl: string): string[] {
  return [
    `Schedule ${description.id}: agent ${description.agent}, ${specText(description.spec)}`,
    `  prompt: ${description.prompt}`,
    ...(description.conversation ? [`  conversation: ${description.conversation.sessionId} (${description.conversation.workflowId}); each fire is a turn`] : []),
    ...(description.budget ? [`  budget: ${JSON.stringify(description.budget)}`] : []),
    ...(description.maxIters !== undefined ? [`  max iterations: ${description.maxIters}`] : []),
    ...(description.model ? [`  model: ${description.model}`] : []),
    ...(description.userId ? [`  user: ${description.userId}`] : []),
    `  overlap: ${description.overlap}; catch-up window: ${seconds(description.catchupWindowMs)}`,
    `  state: ${description.paused ? 'paused' : 'active'}${description.note ? ` (${description.note})` : ''}; ${description.firesTaken} fire(s) taken`,
    `  next fires: ${description.nextFireTimes.slice(0, 3).map(at).join(', ') || '-'}`,
    `  recent runs: ${description.recentRuns.map((run) => run.workflowId).join(', ') || '-'}`,
    `  Web UI: ${webUiUrl}`,
  ];
}
