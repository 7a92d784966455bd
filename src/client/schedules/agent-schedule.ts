import { ScheduleNotFoundError as TemporalScheduleNotFound, type ScheduleHandle } from '@temporalio/client';
import { z } from 'zod';
import { OVERLAP_POLICIES } from './schedule-action';
import { agentScheduleDescription, type AgentScheduleDescription } from './schedule-description';
import { ScheduleNotFoundError } from './schedule-errors';
import { SCHEDULE_OVERLAPS, ScheduleOptionsError, type ScheduleOverlap } from './schedule-options';

export interface BackfillOptions {
  /** The window's start and end (Dates or ISO strings): the fires the spec has in it are taken now. */
  start: Date | string;
  end: Date | string;
  /** `allowAll` by default: every fire of the window starts at once (see docs/schedules.md). */
  overlap?: ScheduleOverlap;
}

const backfillSchema = z
  .object({ start: z.coerce.date(), end: z.coerce.date(), overlap: z.enum(SCHEDULE_OVERLAPS).default('allowAll') })
  .strict()
  .refine((window) => window.start.getTime() <= window.end.getTime(), 'the backfill window must start before it ends');

/** A schedule of agent runs: read it, pause it, fire it now or over a past window, delete it. */
export class AgentSchedule {
  constructor(
    private readonly handle: ScheduleHandle,
    /** The Web UI page of the schedule. */
    readonly webUiUrl: string,
  ) {}

  get id(): string {
    return this.handle.scheduleId;
  }

  async describe(): Promise<AgentScheduleDescription> {
    return agentScheduleDescription(await this.call(() => this.handle.describe()));
  }

  /** Stops the fires (a trigger or backfill still starts runs) until unpause; `note` says why (Web UI, describe). */
  async pause(note = 'Paused by durable-agent'): Promise<void> {
    await this.call(() => this.handle.pause(note));
  }

  async unpause(note = 'Unpaused by durable-agent'): Promise<void> {
    await this.call(() => this.handle.unpause(note));
  }

  /** Fires once now. `allowAll` by default: asked for now, it starts even while an earlier fire's run goes. */
  async trigger(options: { overlap?: ScheduleOverlap } = {}): Promise<void> {
    const overlap = z.enum(SCHEDULE_OVERLAPS).default('allowAll').safeParse(options.overlap);
    if (!overlap.success) throw new ScheduleOptionsError(this.id, [`overlap must be one of ${SCHEDULE_OVERLAPS.join(', ')}`], 'not triggered');
    await this.call(() => this.handle.trigger(OVERLAP_POLICIES[overlap.data]));
  }

  /** Takes now the fires the spec had in a past window (each run named after its fire time in the window). */
  async backfill(options: BackfillOptions): Promise<void> {
    const parsed = backfillSchema.safeParse(options);
    if (!parsed.success) throw new ScheduleOptionsError(this.id, parsed.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)), 'not backfilled');
    const { start, end, overlap } = parsed.data;
    await this.call(() => this.handle.backfill({ start, end, overlap: OVERLAP_POLICIES[overlap] }));
  }

  /** Deletes the schedule; its runs go on. */
  async delete(): Promise<void> {
    await this.call(() => this.handle.delete());
  }

  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof TemporalScheduleNotFound) throw new ScheduleNotFoundError(this.id, 'no schedule has that id', error);
      throw error;
    }
  }
}
