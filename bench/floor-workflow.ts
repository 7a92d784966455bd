import { condition, defineSignal, proxyActivities, proxySinks, setHandler, type Sinks } from '@temporalio/workflow';

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

export const releaseSignal = defineSignal('release');

export interface BenchFloorSinks extends Sinks {
  benchFloor: { parked(): void };
}

/** The floor for a parked run: a bare workflow that waits for one signal, as an agent run waits for an approval. */
export async function waitingFloorWorkflow(): Promise<void> {
  let released = false;
  setHandler(releaseSignal, () => {
    released = true;
  });
  proxySinks<BenchFloorSinks>().benchFloor.parked();
  await condition(() => released);
}
