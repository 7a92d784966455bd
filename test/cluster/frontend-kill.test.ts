import { describeVerdict } from './helpers/chaos-scenario';
import { describeClusterChaos, expectEveryPromiseKept } from './helpers/describe-cluster-chaos';
import { killClusterProcess, restartClusterProcess } from './helpers/cluster-env';

const TOOL_RUNS = 12;
const APPROVAL_RUNS = 4;
const DOWN_MS = 3000;

describeClusterChaos('the frontend SIGKILLed and started again while runs are in tool calls and others wait for approval', (scenario) => {
  test('the worker and the clients reconnect by themselves; approvals sent while it is down land; every run completes, every effect once', async () => {
    await scenario().launch(TOOL_RUNS, APPROVAL_RUNS);
    const deadline = Date.now() + 240_000;
    const killedAt = Date.now();
    await killClusterProcess('frontend');
    // The person approves while no frontend answers: the call is retried until one does.
    const approved = scenario().approveAll(deadline);
    await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    await restartClusterProcess('frontend');
    const downMs = Date.now() - killedAt;
    await approved;
    const verdict = await scenario().verdict(deadline);
    console.log(
      `frontend SIGKILLed, listening again ${(downMs / 1000).toFixed(1)} s later; ` +
        `${TOOL_RUNS} runs × 3 tool steps + ${APPROVAL_RUNS} approvals: ${describeVerdict(verdict)}`,
    );
    expectEveryPromiseKept(verdict);
  });
});
