import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { tsToMs } from '@temporalio/common/lib/time';
import { testAddress, testConnection, testNamespace, workflowBundle } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';
import { describeVerdict } from './helpers/chaos-scenario';
import { clusterDir } from './helpers/cluster-env';
import { describeClusterChaos, expectEveryPromiseKept } from './helpers/describe-cluster-chaos';
import { STEPS, STEPS_AGENT } from './helpers/ledger-agents';
import { startNamespacedWorker, type NamespacedWorker } from './helpers/namespaced-worker';
import { netnsExists, netnsUnavailable } from './helpers/netns';

const NAME = 'one worker cut off from the frontend for 30 s';
const TOOL_RUNS = 16;
const APPROVAL_RUNS = 6;
/** Runs started after the network is back, so the worker that was cut off has new work to take. */
const AFTER_RUNS = 6;
const MAX_AFTER_RUNS = 20;
const CUT_MS = 30_000;
const EventType = temporal.api.enums.v1.EventType;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When the server last saw a poll of `identity` on the task queue (workflow or activity), or 0. */
async function lastPoll(taskQueue: string, identity: string): Promise<number> {
  const connection = await testConnection();
  let last = 0;
  for (const taskQueueType of [temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY]) {
    const response = await connection.workflowService.describeTaskQueue({
      namespace: testNamespace(),
      taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType,
    });
    for (const poller of response.pollers ?? []) if (poller.identity === identity && poller.lastAccessTime) last = Math.max(last, tsToMs(poller.lastAccessTime));
  }
  return last;
}

const unavailable = clusterDir() ? netnsUnavailable() : undefined;
if (unavailable) {
  console.log(`[cluster tests] skipped '${NAME}': ${unavailable}`);
  describe.skip(NAME, () => test('needs network namespaces', () => undefined));
} else {
  describeClusterChaos(NAME, (scenario) => {
    let worker: NamespacedWorker | undefined;
    afterAll(async () => {
      await worker?.stop();
    });

    test('a second worker in a network namespace loses the frontend mid-batch; the other finishes its steps, none applied twice, and it works again once the network is back', async () => {
      const { env, ledger } = scenario();
      worker = await startNamespacedWorker({
        frontendAddress: testAddress(),
        modelBaseURL: env.model.baseURL,
        taskQueue: env.taskQueue,
        ledgerDir: ledger.dir,
        workflowBundle: workflowBundle().codePath,
        namespace: testNamespace(),
      });
      const cutOff = worker;

      await scenario().launch(TOOL_RUNS, APPROVAL_RUNS);
      const deadline = Date.now() + 360_000;
      // Cut while the namespaced worker has just applied a step it has not reported yet (its tool
      // takes 300–1500 ms after applying): another worker must run that step again, without a second effect.
      const before = cutOff.executions.length;
      await waitFor(async () => (cutOff.executions.length > before ? true : undefined), 'the namespaced worker to take a step', 60_000);
      const executedBeforeCut = cutOff.executions.length;
      const connectionsBeforeCut = cutOff.frontend.accepted();
      const cutAt = Date.now();
      cutOff.ns.cut();
      const inFlight = cutOff.executions.filter((e) => e.at > cutAt - 1500).map((e) => e.key);
      let restoredAt = 0;
      try {
        // A person approves while the worker is cut off: the other worker carries the runs.
        await scenario().approveAll(deadline);
        await sleep(Math.max(0, cutAt + CUT_MS - Date.now()));
      } finally {
        cutOff.ns.restore();
        restoredAt = Date.now();
      }
      const executedWhileCut = cutOff.executions.filter((e) => e.at > cutAt && e.at < restoredAt).length;
      const settledAtRestore = (await Promise.all(scenario().toolRuns.map((run) => run.handle.describe()))).filter((d) => d.status.name !== 'RUNNING').length;

      // New runs once the network is back, so the worker that was cut off has steps to take: more
      // of them while it has taken none yet and the others are done (the other worker may be quicker).
      const startRuns = async (count: number) => {
        const from = scenario().toolRuns.length;
        const runs = await Promise.all(Array.from({ length: count }, (_, i) => env.client.start(STEPS_AGENT, { prompt: `apply the ${STEPS} steps of plan ${from + i}` })));
        scenario().toolRuns.push(...runs);
        return runs;
      };
      let afterRuns = await startRuns(AFTER_RUNS);
      let fed = AFTER_RUNS;
      const repolledMs = await waitFor(async () => {
        const last = await lastPoll(env.taskQueue, cutOff.identity);
        return last > restoredAt ? last - restoredAt : undefined;
      }, 'the namespaced worker to poll again', 180_000);
      const firstStepMs = await waitFor(async () => {
        const next = cutOff.executions.find((e) => e.at > restoredAt);
        if (next) return next.at - restoredAt;
        if (fed < MAX_AFTER_RUNS && (await Promise.all(afterRuns.map((run) => run.handle.describe()))).every((d) => d.status.name !== 'RUNNING')) {
          afterRuns = await startRuns(2);
          fed += 2;
        }
        return undefined;
      }, 'the namespaced worker to take a step again', 180_000);

      const verdict = await scenario().verdict(deadline);
      const settledMs = Date.now() - restoredAt;

      // Who completed what: the histories name the worker that completed each step.
      const completedBy = { cutOff: 0, cutOffAfterRestore: 0, other: 0 };
      let firstCompletionAfterRestore = Infinity;
      for (const run of scenario().toolRuns) {
        for (const event of (await run.handle.fetchHistory()).events ?? []) {
          if (event.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) continue;
          const at = tsToMs(event.eventTime);
          if (event.activityTaskCompletedEventAttributes?.identity === cutOff.identity) {
            completedBy.cutOff += 1;
            if (at > restoredAt) {
              completedBy.cutOffAfterRestore += 1;
              firstCompletionAfterRestore = Math.min(firstCompletionAfterRestore, at);
            }
          } else completedBy.other += 1;
        }
      }
      // The steps the cut worker had applied in flight, and how often each ran in all.
      const executions = readFileSync(join(ledger.dir, 'executions.log'), 'utf8').split('\n').filter(Boolean);
      const count = (keys: string[], key: string) => keys.filter((k) => k === key).length;
      const mine = cutOff.executions.map((e) => e.key);
      const ranAgainElsewhere = inFlight.filter((key) => count(executions, key) > count(mine, key)).length;
      const ranAgainHere = inFlight.filter((key) => count(mine, key) > 1).length;

      console.log(
        `a second worker (pid ${cutOff.pid}, netns ${cutOff.ns.name}) took ${executedBeforeCut} step executions, then its veth was down for ${s(restoredAt - cutAt)}, ` +
          `${inFlight.length} of its steps applied in the last 1.5 s before (${ranAgainElsewhere} of them ran again on the other worker, ${ranAgainHere} again on it after the restore; each effect once); ` +
          `${executedWhileCut} steps ran on it while cut off, ${settledAtRestore}/${TOOL_RUNS} tool runs had finished on the other worker by the restore; ` +
          `after the restore it polled again in ${s(repolledMs)} (connections to the frontend opened: ${connectionsBeforeCut} before the cut, ${cutOff.frontend.accepted() - connectionsBeforeCut} since), took a step in ${s(firstStepMs)}` +
          `${Number.isFinite(firstCompletionAfterRestore) ? `, the server recorded its first completion ${s(firstCompletionAfterRestore - restoredAt)} after the restore` : ''}; ` +
          `every run finished ${s(settledMs)} after the restore; activity completions by the cut worker ${completedBy.cutOff} (${completedBy.cutOffAfterRestore} after the restore), by the other ${completedBy.other}; ` +
          `${TOOL_RUNS} + ${fed} runs × ${STEPS} tool steps + ${APPROVAL_RUNS} approvals: ${describeVerdict(verdict)}`,
      );
      expectEveryPromiseKept(verdict);
      expect(completedBy.cutOffAfterRestore).toBeGreaterThan(0);

      await cutOff.stop();
      expect(netnsExists(cutOff.ns.name)).toBe(false);
    }, 600_000);
  });
}
