import type { AgentRun } from '../client/agent-run';
import { describeRunFailure } from '../client/run-failure';
import { stateWithin } from './state-within';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { REFUSED_STEP_PREFIX } from '../common/refused-step';

export type AgentCheck = { outcome: 'described' } | { outcome: 'failed'; message: string } | { outcome: 'no_worker' } | { outcome: 'not_served'; message: string };

const POLL_MS = 150;

/**
 * Waits until a worker has described the run's agent (its state leaves `starting`), or the run
 * failed, or the workers of its task queue serve other agents (the run waits for one that serves
 * its agent: a typo, or a worker not deployed), or `timeoutMs` passed without a worker.
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
    if (state?.currentStep.startsWith(REFUSED_STEP_PREFIX)) {
      const details = (await run.handle.query(workflowMetadataQuery).catch(() => undefined))?.currentDetails ?? '';
      const serves = /^Worker `([^`]+)` of this task queue serves (.*?): it left/m.exec(details);
      const who = serves ? `worker ${serves[1]} serves ${serves[2]}` : 'its workers serve other agents';
      return { outcome: 'not_served', message: `Run ${run.workflowId}: no worker of its task queue serves agent '${state.agent}' (${who}); the run waits 15 minutes for one, then fails.` };
    }
    if (state && state.currentStep !== 'starting') return { outcome: 'described' };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { outcome: 'no_worker' };
}
