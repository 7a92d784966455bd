import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { findFreePorts } from '../../scripts/dev-server.cjs';
import { AgentClient } from '../../src/client/agent-client';
import { installRuntime } from '../../src/telemetry/install-runtime';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { spawnWorkerProcess } from '../helpers/crash-worker';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { parsePrometheus, total, type Sample } from './prometheus-text';

const USAGE = [
  { promptTokens: 100, completionTokens: 20 },
  { promptTokens: 150, completionTokens: 5 },
];

function spawnMetricsWorker(env: Record<string, string>): Promise<ChildProcess> {
  return spawnWorkerProcess(join('test', 'telemetry', 'metrics-worker-process.ts'), env, 'metrics worker');
}

async function scrape(address: string): Promise<Sample[]> {
  const response = await fetch(`http://${address}/metrics`);
  expect(response.status).toBe(200);
  return parsePrometheus(await response.text());
}

describe('metrics', () => {
  test('the runtime is created once per process: installRuntime after it exists says what to do', () => {
    // This jest process already has one (test/helpers/quiet-runtime.ts).
    expect(() => installRuntime({ prometheus: '127.0.0.1:0' })).toThrow(/already created.*Call installRuntime\(\{ prometheus \}\) before/s);
  });

  describe('a worker serving Prometheus', () => {
    let model: ScriptedModelServer;
    let child: ChildProcess | undefined;
    let client: AgentClient;
    let address: string;
    const taskQueue = uniqueTaskQueue('metrics');

    beforeAll(async () => {
      model = await startScriptedModelServer({});
      model.setScript((_req, info) =>
        info.turnIndex === 0
          ? { toolCalls: [{ name: 'lookup', arguments: { key: 'ORD-9' } }, { name: 'refund', arguments: { order_id: 'ORD-9', amount: 5 } }], usage: USAGE[0] }
          : { text: 'done', usage: USAGE[1] },
      );
      const [port] = await findFreePorts(1);
      address = `127.0.0.1:${port}`;
      child = await spawnMetricsWorker({ PROMETHEUS_ADDRESS: address, TASK_QUEUE: taskQueue, MODEL_BASE_URL: model.baseURL });
      client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    });
    afterAll(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await model?.close();
    });

    test('the project’s metrics and the SDK’s, labelled by model, tool, decision and outcome', async () => {
      const run = await client.start('metrics-shop', { prompt: 'refund ORD-9' });
      const { pending } = await waitForPending(run, 1);
      const waiting = { agent: 'metrics-shop', taskQueue };
      expect(await waitFor(async () => ((total(await scrape(address), 'durable_agent_runs_awaiting_approval', waiting) ?? 0) === 1 ? 1 : undefined), 'a run counted as waiting')).toBe(1);
      await run.approve(pending[0]!.callId);
      await run.result();

      const samples = await scrape(address);
      const ours = { taskQueue };
      expect(total(samples, 'durable_agent_runs_awaiting_approval', waiting)).toBe(0);
      expect(total(samples, 'durable_agent_model_calls', { ...ours, model: 'scripted-model', outcome: 'success' })).toBe(2);
      expect(total(samples, 'durable_agent_tokens', { ...ours, model: 'scripted-model', type: 'input' })).toBe(USAGE[0]!.promptTokens + USAGE[1]!.promptTokens);
      expect(total(samples, 'durable_agent_tokens', { ...ours, model: 'scripted-model', type: 'output' })).toBe(USAGE[0]!.completionTokens + USAGE[1]!.completionTokens);
      expect(total(samples, 'durable_agent_model_latency_count', { ...ours, model: 'scripted-model' })).toBe(2);
      // The model's own buckets reach minutes.
      expect(total(samples, 'durable_agent_model_latency_bucket', { ...ours, model: 'scripted-model', le: '300000' })).toBe(2);
      expect(total(samples, 'durable_agent_tool_calls', { ...ours, tool: 'lookup', outcome: 'success' })).toBe(1);
      expect(total(samples, 'durable_agent_tool_calls', { ...ours, tool: 'refund', outcome: 'success' })).toBe(1);
      expect(total(samples, 'durable_agent_permission_decisions', { ...ours, tool: 'lookup', decision: 'allow', by: 'rules' })).toBe(1);
      expect(total(samples, 'durable_agent_permission_decisions', { ...ours, tool: 'refund', decision: 'ask', by: 'rules' })).toBe(1);
      expect(total(samples, 'durable_agent_permission_decisions', { ...ours, tool: 'refund', decision: 'allow', by: 'user' })).toBe(1);
      // Temporal's own worker metrics come from the same endpoint.
      expect(total(samples, 'temporal_activity_execution_latency_count', { task_queue: taskQueue, activity_type: 'callModel' })).toBe(2);
      expect(total(samples, 'temporal_request', { operation: 'RespondWorkflowTaskCompleted' })).toBeGreaterThan(0);
    });
  });
});
