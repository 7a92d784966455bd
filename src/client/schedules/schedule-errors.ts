/** A schedule of that id exists already (Temporal's ScheduleAlreadyRunning): nothing was created. */
export class ScheduleExistsError extends Error {
  constructor(
    readonly scheduleId: string,
    override readonly cause?: unknown,
  ) {
    super(`A schedule with id '${scheduleId}' exists already; nothing was created (delete it first, or choose another id).`);
    this.name = 'ScheduleExistsError';
  }
}

/** No schedule of that id, or one that does not start agent runs. */
export class ScheduleNotFoundError extends Error {
  constructor(
    readonly scheduleId: string,
    why = 'no schedule has that id',
    override readonly cause?: unknown,
  ) {
    super(`Schedule '${scheduleId}' not found: ${why}.`);
    this.name = 'ScheduleNotFoundError';
  }
}
