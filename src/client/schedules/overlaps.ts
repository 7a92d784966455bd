/** What a schedule does when a fire comes while the run of an earlier fire is still going (Temporal's overlap policies). */
export const SCHEDULE_OVERLAPS = ['skip', 'bufferOne', 'bufferAll', 'cancelOther', 'terminateOther', 'allowAll'] as const;
export type ScheduleOverlap = (typeof SCHEDULE_OVERLAPS)[number];
