import { proxyActivities } from '@temporalio/workflow';

export interface FloorActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/** The floor of the benchmark: a bare workflow running two no-op activities in sequence. */
export async function floorWorkflow(): Promise<void> {
  await noop();
  await noop();
}
