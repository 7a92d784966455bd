import type { AgentRun } from '../client/agent-run';
import { describeRunFailure } from '../client/run-failure';
import { stateWithin } from './state-within';

export type AgentCheck = { outcome: 'described' } | { outcome: 'failed'; message: string } | { outcome: 'no_worker' };

const POLL_MS = 150;

/**
 * Waits until a worker has described the run's agent (its state leaves `starting`), or the run
 * failed (an agent no worker knows fails it at once), or `timeoutMs` passed without a worker.
 */
export async function checkAgentStarted(run: AgentRun, timeoutMs = 10_000): Promise<AgentCheck> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { status } = await run.execution();
    if (status !== 'RUNNING') {
      if (status === 'COMPLETED' || status === 'CONTINUED_AS_NEW') return { outcome: 'described' };
      const message = await run.result().then(
        () => `Run ${run.workflowId} ended.`,
        (error: unknown) => describeRunFailure(run.workflowId, error),
      );
      return { outcome: 'failed', message };
    }
    const state = await stateWithin(run, Math.max(0, Math.min(2_000, deadline - Date.now())));
    if (state && state.currentStep !== 'starting') return { outcome: 'described' };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { outcome: 'no_worker' };
}
