import { waitFor } from '../helpers/wait-for';
import { describeVerdict } from './helpers/chaos-scenario';
import { describeClusterChaos, expectEveryPromiseKept } from './helpers/describe-cluster-chaos';
import { historyPorts, killClusterProcess, restartClusterProcess, shardRecords } from './helpers/cluster-env';

const TOOL_RUNS = 16;
const APPROVAL_RUNS = 6;

describeClusterChaos('a history process SIGKILLed while runs are in tool calls and others wait for approval', (scenario) => {
  test('its shards move to the other history process; every run completes, every effect once, the approvals land', async () => {
    const ports = historyPorts();
    const before = await shardRecords();
    const owned = (name: string) => before.filter((s) => s.ownerPort === ports[name]).length;
    // The process that owns the most shards dies: the other must take them over.
    const [victim, survivor] = Object.keys(ports).sort((a, b) => owned(b) - owned(a)) as [string, string];
    expect(owned(victim)).toBeGreaterThan(0);

    await scenario().launch(TOOL_RUNS, APPROVAL_RUNS);
    const deadline = Date.now() + 240_000;
    const killedAt = Date.now();
    await killClusterProcess(victim);
    const moved = waitFor(
      async () => ((await shardRecords()).every((s) => s.ownerPort === ports[survivor]) ? Date.now() - killedAt : undefined),
      `every shard to move to ${survivor}`,
      60_000,
    );
    await scenario().approveAll(deadline);
    const verdict = await scenario().verdict(deadline);
    const movedAfterMs = await moved;

    const after = await shardRecords();
    for (const shard of before.filter((s) => s.ownerPort === ports[victim])) {
      expect(after.find((s) => s.shard === shard.shard)!.rangeId).toBeGreaterThan(shard.rangeId);
    }
    console.log(
      `${victim} (${owned(victim)} of ${before.length} shards) SIGKILLed; ${survivor} owned every shard ${(movedAfterMs / 1000).toFixed(1)} s later; ` +
        `${TOOL_RUNS} runs × 3 tool steps + ${APPROVAL_RUNS} approvals: ${describeVerdict(verdict)}`,
    );
    expectEveryPromiseKept(verdict);

    await restartClusterProcess(victim);
  });
});
