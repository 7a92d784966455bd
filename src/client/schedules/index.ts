/** Agents on a schedule: Temporal Schedules whose action starts an agent run (or a conversation's turn). */
export { AgentSchedule, type BackfillOptions } from './agent-schedule';
export { AgentSchedules, type AgentScheduleSummary } from './schedules';
export { type AgentScheduleDescription, type ScheduledRun } from './schedule-description';
export { ScheduleExistsError, ScheduleNotFoundError } from './schedule-errors';
export { checkedScheduleOptions, DEFAULT_CATCHUP_WINDOW, SCHEDULE_OVERLAPS, ScheduleOptionsError, type AgentScheduleOptions, type ScheduleOverlap } from './schedule-options';
export { cronProblem } from './cron-check';
