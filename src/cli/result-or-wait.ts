import type { AgentRun } from '../client/agent-run';
import type { AgentRunResult, AgentRunState } from '../common/run';
import { waitingState } from './waiting-runs';

/** How often a run that is still working is asked whether it now waits for a person. */
export const WAIT_CHECK_INTERVAL_MS = 1_000;

export type ResultOrWait = { result: AgentRunResult } | { failure: unknown } | { waiting: AgentRunState };

/**
 * The run's end, or its state as soon as it waits for a person, whichever comes first: a run may
 * start waiting (an approval, an external result) long after it was asked for, and would then
 * never end by itself. The run is asked at once (a run that cannot be read fails here, as it
 * always did), then on each interval while it works.
 */
export async function resultOrWait(run: AgentRun, intervalMs = WAIT_CHECK_INTERVAL_MS): Promise<ResultOrWait> {
  const waitingNow = await waitingState(run);
  if (waitingNow) return { waiting: waitingNow };
  let ended = false;
  // Settled either way, so an abandoned wait for the result (the run waits) rejects nothing unhandled.
  const end: Promise<ResultOrWait> = run.result().then(
    (result) => ({ result }),
    (failure: unknown) => ({ failure }),
  );
  void end.finally(() => (ended = true));
  const watch = async (): Promise<ResultOrWait | undefined> => {
    for (;;) {
      await Promise.race([end, new Promise((resolve) => setTimeout(resolve, intervalMs).unref())]);
      if (ended) return undefined;
      const waiting = await waitingState(run);
      if (waiting) return { waiting };
    }
  };
  const first = await Promise.race([end, watch()]);
  return first ?? end;
}
