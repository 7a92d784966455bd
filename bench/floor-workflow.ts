import { proxyActivities } from '@temporalio/workflow';

export interface FloorActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/**
 * The fair floor of one iteration: a bare workflow running as many no-op activities in sequence as
 * one agent iteration must record: model, tool, model.
 */
export async function floorWorkflow(): Promise<void> {
  await noop();
  await noop();
  await noop();
}

/** The floor for throughput: `count` no-op activities in sequence, about the activities of a multi-iteration run. */
export async function floorActivitiesWorkflow(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await noop();
}
