import { finalAnswer } from '../../chaos/chaos-model';
import { persist } from '../../chaos/persist';
import type { AgentRun } from '../../src/client/agent-run';
import { waitFor } from '../helpers/wait-for';
import { describeVerdict, type ChaosScenario } from './helpers/chaos-scenario';
import { describeClusterChaos, expectEveryPromiseKept } from './helpers/describe-cluster-chaos';
import { killClusterProcess, restartClusterProcess } from './helpers/cluster-env';
import { childPids, clusterPid, downProcesses, waitUntilAllGone } from './helpers/cluster-processes';
import { STEPS, STEPS_AGENT } from './helpers/ledger-agents';

const TOOL_RUNS = 16;
const APPROVAL_RUNS = 6;
const DOWN_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A fresh run of the scenario's tool agent, started (retried while the cluster refuses) and awaited: how long it took, from `from`. */
async function probeRun(scenario: ChaosScenario, label: string, deadline: number, from = Date.now()): Promise<{ run: AgentRun; ms: number }> {
  const run = await persist(() => scenario.env.client.start(STEPS_AGENT, { prompt: `apply the ${STEPS} steps of ${label}` }), deadline);
  const result = await persist(() => run.result(), deadline);
  expect(result.status).toBe('completed');
  expect(result.output).toBe(finalAnswer(STEPS));
  return { run, ms: Date.now() - from };
}

describeClusterChaos('PostgreSQL SIGKILLed mid-batch and restarted', (scenario) => {
  test('every Temporal process outlives the database; the runs go on once it is back: every run correct, every effect once', async () => {
    const deadline = Date.now() + 300_000;
    // What a run takes on a healthy cluster, to read the recovery figure against.
    const baseline = await probeRun(scenario(), 'the baseline probe', deadline);

    await scenario().launch(TOOL_RUNS, APPROVAL_RUNS);
    const postmaster = clusterPid('postgres');
    // Its backends and helpers: after a SIGKILL of the postmaster they exit by themselves, and it
    // cannot start again while one of them still holds the shared memory.
    const children = childPids(postmaster);
    const effectsAtKill = scenario().ledger.effects().size;
    const killedAt = Date.now();
    await killClusterProcess('postgres');
    // Any Temporal process that exits from here on is noted (and started again once the database is back).
    const exited = new Set<string>();
    let dbUp = false;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const name of downProcesses().filter((n) => n !== 'postgres')) {
          exited.add(name);
          // A process that fails to start now is tried again on the next round.
          if (dbUp) await restartClusterProcess(name).catch(() => undefined);
        }
        await sleep(250);
      }
    })();
    try {
      await sleep(Math.max(0, killedAt + DOWN_MS - Date.now()));
      const orphans = await waitUntilAllGone(children, 60_000);
      if (orphans.length > 0) throw new Error(`PostgreSQL's processes ${orphans.join(', ')} still run 60 s after its postmaster was SIGKILLed`);
      const effectsWhileDown = scenario().ledger.effects().size - effectsAtKill;

      const executionsAtRestart = scenario().ledger.executions();
      const restartedAt = Date.now();
      await restartClusterProcess('postgres');
      dbUp = true;
      const listeningMs = Date.now() - restartedAt;
      // The first step any run takes after the restart, and a run started after it, end to end.
      const firstStep = waitFor(async () => (scenario().ledger.executions() > executionsAtRestart ? Date.now() - restartedAt : undefined), 'a step after the restart', 180_000);
      const probe = probeRun(scenario(), 'the probe after the restart', deadline, restartedAt);
      // Awaited below; a failure meanwhile must not go unhandled.
      firstStep.catch(() => undefined);
      probe.catch(() => undefined);
      await scenario().approveAll(deadline);
      const firstStepMs = await firstStep;
      const after = await probe;
      scenario().toolRuns.push(baseline.run, after.run);
      const verdict = await scenario().verdict(deadline);
      const settledMs = Date.now() - restartedAt;
      watching = false;
      await watch;

      console.log(
        `PostgreSQL SIGKILLed mid-batch (its ${children.length} backends and helpers exited by themselves), started again ${s(restartedAt - killedAt)} later ` +
          `(${effectsWhileDown} effects applied while it was down), listening ${s(listeningMs)} after the restart; ` +
          `Temporal processes that exited: ${exited.size > 0 ? `${[...exited].join(', ')} (restarted by the test)` : 'none'}; ` +
          `first step of a run ${s(firstStepMs)} after the restart, a fresh run completed ${s(after.ms)} after it (${s(baseline.ms)} on the healthy cluster), ` +
          `every run finished ${s(settledMs)} after it; ` +
          `${TOOL_RUNS} runs × ${STEPS} tool steps + 2 probe runs + ${APPROVAL_RUNS} approvals: ${describeVerdict(verdict)}`,
      );
      expectEveryPromiseKept(verdict);
    } finally {
      watching = false;
      await watch.catch(() => undefined);
    }
  }, 420_000);
});
