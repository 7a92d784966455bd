import type { AgentRun } from '../../src/client/agent-run';
import { stateQuery } from '../../src/common/definitions';
import type { StateQueryAnswer } from '../../src/common/run';

/** Polls `probe` until it returns a value (not undefined). */
export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** The run's state once at least `count` calls wait for a person. */
/** The run's state query's answer (the public state and the workflow's own call records), once `count` calls wait. */
export function waitForPending(run: AgentRun, count = 1, timeoutMs?: number): Promise<StateQueryAnswer> {
  return waitFor(
    async () => {
      const state = await run.handle.query(stateQuery);
      return state.pending.length >= count ? state : undefined;
    },
    `${count} pending call(s) of ${run.workflowId}`,
    timeoutMs,
  );
}
