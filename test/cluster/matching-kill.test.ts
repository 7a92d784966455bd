import { waitFor } from '../helpers/wait-for';
import { describeVerdict } from './helpers/chaos-scenario';
import { describeClusterChaos, expectEveryPromiseKept } from './helpers/describe-cluster-chaos';
import { killClusterProcess, movedPartitions, ofTaskQueue, partitionRanges, restartClusterProcess } from './helpers/cluster-env';

const TOOL_RUNS = 12;
const APPROVAL_RUNS = 4;

describeClusterChaos('a matching process SIGKILLed while runs are in tool calls and others wait for approval', (scenario) => {
  test('the other matching process takes its task-queue partitions; every run completes, every effect once, the approvals land', async () => {
    await scenario().launch(TOOL_RUNS, APPROVAL_RUNS);
    const deadline = Date.now() + 240_000;
    const before = await partitionRanges();
    const killedAt = Date.now();
    await killClusterProcess('matching-1');
    await scenario().approveAll(deadline);
    const verdict = await scenario().verdict(deadline);
    const settledMs = Date.now() - killedAt;
    // A partition whose lease generation rose was matching-1's and is matching-2's now. It moves
    // once matching-2 has learnt of the death (seconds) and the partition's next poll or task
    // reaches it: the polled ones have by 15 s after the kill.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + 15_000 - Date.now())));
    const moved = await waitFor(async () => {
      const changed = movedPartitions(before, await partitionRanges());
      return changed.length > 0 ? changed : undefined;
    }, 'a partition of matching-1 to move to matching-2', 60_000);
    const ours = moved.filter((id) => ofTaskQueue(id, scenario().env.taskQueue)).length;
    console.log(
      `matching-1 SIGKILLed: ${moved.length} task-queue partitions moved to matching-2 (${ours} of the runs' queue); ` +
        `all runs settled ${(settledMs / 1000).toFixed(1)} s after the kill; ` +
        `${TOOL_RUNS} runs × 3 tool steps + ${APPROVAL_RUNS} approvals: ${describeVerdict(verdict)}`,
    );
    expectEveryPromiseKept(verdict);
    await restartClusterProcess('matching-1');
  });
});
