import { defineAgent } from '../../src/toolkit/define-agent';
import { refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { waitForPending } from '../helpers/wait-for';

const shop = defineAgent({ name: 'cli-fail-shop', instructions: 'Refund.', tools: [refundTool], permissions: { ask: ['refund'] } });

describe('the CLI says clearly how a run failed or what it waits for', () => {
  let env: AgentTestEnv;
  let common: string[];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [shop] });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => env?.stop());

  test('start with an agent no worker of the queue serves exits 1 at once saying so; the run waits for such a worker, and its state says so', async () => {
    const started = await runCliCaptured(['start', '--agent', 'nope', '--prompt', 'hello', ...common]);
    expect(started.code).toBe(1);
    const workflowId = /^Started (\S+)$/.exec(started.out[0]!)![1]!;
    expect(started.err.join('\n')).toMatch(new RegExp(`^Run ${workflowId}: no worker of its task queue serves agent 'nope' \\(worker \\S+ serves cli-fail-shop\\); the run waits 15 minutes for one, then fails\\.$`));
    const json = await runCliCaptured(['start', '--agent', 'nope', '--prompt', 'hello', '--json', ...common]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out[0]!)).toMatchObject({ error: expect.stringContaining("no worker of its task queue serves agent 'nope'") });
    const state = await env.client.get(workflowId).state();
    expect(state.currentStep).toBe("waiting for a worker that serves agent 'nope' (the describeAgent step)");
    await env.client.get(workflowId).cancel();
  });

  test('`npm run -s agent -- … --json` prints pure JSON on stdout', async () => {
    const { execFile } = require('node:child_process') as typeof import('node:child_process');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile('npm', ['run', '-s', 'agent', '--', 'list', '--json', ...common], { cwd: `${__dirname}/../..`, env: { ...process.env, NO_COLOR: '1' } }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    expect(Array.isArray(JSON.parse(stdout))).toBe(true);
  });

  test('result of a run waiting for approval says so and shows the call (exit 3); with --wait it waits for the answer', async () => {
    env.model.setScript((_req, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'W1', amount: 3 } }] } : 'Refunded.'));
    const run = await env.client.start('cli-fail-shop', { prompt: 'refund W1' });
    const { pending } = await waitForPending(run);
    const callId = pending[0]!.callId;

    const waiting = await runCliCaptured(['result', run.workflowId, ...common]);
    expect(waiting.code).toBe(3);
    expect(waiting.out[0]).toBe(`Run ${run.workflowId} is waiting for a person (awaiting_approval); result --wait waits for its end.`);
    expect(waiting.out).toContain(`${run.workflowId}  approval  ${callId}  refund {"order_id":"W1","amount":3}`);
    expect(waiting.out).toContain(`    approve: durable-agent approve ${run.workflowId} ${callId}`);
    const json = await runCliCaptured(['result', run.workflowId, '--json', ...common]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.out[0]!)).toMatchObject({ workflowId: run.workflowId, status: 'awaiting_approval', pending: [{ callId }] });

    const waited = runCliCaptured(['result', run.workflowId, '--wait', ...common]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await run.approve(callId);
    const done = await waited;
    expect(done.code).toBe(0);
    expect(done.out[0]).toBe('Refunded.');
  });

  test('result of a run that starts waiting for approval only after result was called says so too (exit 3), instead of waiting for an end that never comes', async () => {
    let reply: () => void = () => undefined;
    const replied = new Promise<void>((resolve) => (reply = resolve));
    // The model's first reply (the call that asks) is held back until `result` is already waiting for the end.
    env.model.setScript(async (_req, info) => {
      if (info.turnIndex > 0) return 'Refunded.';
      await replied;
      return { toolCalls: [{ name: 'refund', arguments: { order_id: 'W2', amount: 4 } }] };
    });
    const run = await env.client.start('cli-fail-shop', { prompt: 'refund W2' });
    const asked = runCliCaptured(['result', run.workflowId, ...common]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await run.state()).pending).toEqual([]);
    reply();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([asked, new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), 20_000)))]);
    clearTimeout(timer);
    const { pending } = await waitForPending(run);
    if (outcome === 'still waiting') {
      await run.approve(pending[0]!.callId);
      await asked;
    }
    expect(outcome).not.toBe('still waiting');
    const waiting = outcome as Awaited<typeof asked>;
    expect(waiting.code).toBe(3);
    expect(waiting.out[0]).toBe(`Run ${run.workflowId} is waiting for a person (awaiting_approval); result --wait waits for its end.`);
    expect(waiting.out).toContain(`${run.workflowId}  approval  ${pending[0]!.callId}  refund {"order_id":"W2","amount":4}`);
    await run.approve(pending[0]!.callId);
    expect((await run.result()).output).toBe('Refunded.');
  });
});
