import { ChaosScenario, type ChaosVerdict } from './chaos-scenario';
import { clusterDir, restoreCluster } from './cluster-env';

/**
 * A chaos suite against the cluster: its scenario (agents, ledger, worker) started before and
 * stopped after, and every process of the cluster running again after it; skipped when the tier
 * has no cluster folder of its own to kill processes in.
 */
export function describeClusterChaos(name: string, body: (scenario: () => ChaosScenario) => void): void {
  (clusterDir() ? describe : describe.skip)(name, () => {
    let scenario: ChaosScenario | undefined;
    beforeAll(async () => {
      scenario = await ChaosScenario.start();
    });
    afterAll(async () => {
      await scenario?.stop();
      await restoreCluster();
    });
    body(() => scenario!);
  });
}

/** Every run answered right, every effect applied once, no step reported failed though applied, no workflow task failed. */
export function expectEveryPromiseKept(verdict: ChaosVerdict): void {
  expect(verdict.problems).toEqual([]);
  expect(verdict.correct).toBe(verdict.runs);
  expect(verdict.effectsOnce).toBe(verdict.effects);
  expect(verdict.failedThoughApplied).toBe(0);
  expect(verdict.workflowTaskFailed).toBe(0);
}
