/**
 * What every room of the workflow code stands on: the workflow's clock, the activity proxies and
 * their schedules, and how a failed step is described.
 */
export { activities, localActivities, scheduledTurnActivities } from './activities-proxy';
export { nowIso, nowMs } from './clock';
export { describeStepFailure, stepFailureType } from './step-failure';
export { stepSchedule, type StepSchedule } from './step-schedule';
