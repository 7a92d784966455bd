import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { TemporalConnectionError } from '../../src/connection/temporal-connection-error';
import { createChatModel } from '../../src/model/create-chat-model';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { createWorker, type CreateWorkerOptions } from '../../src/worker/create-worker';
import { runCliCaptured } from '../helpers/cli-capture';
import { testAddress, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { closedPort, startSilentServer } from '../helpers/unreachable-endpoints';

// Generous: the point is "seconds, not a quarter of a minute", not a benchmark.
const BOUND_MS = 10_000;

const noop = defineAgent({
  name: 'noop',
  instructions: 'Nothing.',
  tools: [defineTool({ name: 'noop', description: 'Nothing.', input: z.object({}), readOnly: true, execute: () => 'ok' })],
});

function workerOptions(config: CreateWorkerOptions['config']): CreateWorkerOptions {
  return {
    agents: [noop],
    config: { taskQueue: uniqueTaskQueue('fail-fast'), toolsConfigPath: '/nonexistent/tools.json', ...config },
    model: createChatModel({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'unused', defaultModel: 'none' }),
    workflowBundle: workflowBundle(),
    log: () => undefined,
  };
}

async function timed<T>(attempt: () => Promise<T>): Promise<{ error: Error; elapsedMs: number }> {
  const started = Date.now();
  try {
    await attempt();
  } catch (error) {
    return { error: error as Error, elapsedMs: Date.now() - started };
  }
  throw new Error('expected the attempt to fail');
}

describe('an unreachable Temporal server fails within seconds, naming the address and the cause', () => {
  let closed: string;
  beforeAll(async () => {
    closed = `127.0.0.1:${await closedPort()}`;
  });

  test.each(['127.0.0.1:1', 'closed port'])('AgentClient.connect to %s', async (which) => {
    const address = which === 'closed port' ? closed : which;
    const { error, elapsedMs } = await timed(() => AgentClient.connect({ address }));
    expect(error).toBeInstanceOf(TemporalConnectionError);
    expect(error.message).toBe(
      `Cannot connect to the Temporal server at ${address}: connection refused: nothing listens on that port. ` +
        'Start a server (`npm start` or `temporal server start-dev`), or set the address (--address, TEMPORAL_ADDRESS or a profile of the Temporal config file).',
    );
    expect(elapsedMs).toBeLessThan(BOUND_MS);
  });

  test('createWorker', async () => {
    const { error, elapsedMs } = await timed(() => createWorker(workerOptions({ temporalAddress: closed })));
    expect(error).toBeInstanceOf(TemporalConnectionError);
    expect(error.message).toMatch(new RegExp(`^Cannot connect to the Temporal server at ${closed}: connection refused`));
    expect(elapsedMs).toBeLessThan(BOUND_MS);
  });

  test('the CLI: exit 1, one line naming the address and the cause', async () => {
    const started = Date.now();
    const run = await runCliCaptured(['list', '--address', closed]);
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(new RegExp(`^Error: Cannot connect to the Temporal server at ${closed}: connection refused: nothing listens on that port\\.`));
  });

  test('a server that accepts and never answers: the timeout, for client and worker', async () => {
    const silent = await startSilentServer();
    try {
      const client = await timed(() => AgentClient.connect({ address: silent.address, connectTimeoutMs: 1500 }));
      expect(client.error.message).toMatch(new RegExp(`^Cannot connect to the Temporal server at ${silent.address}: no answer within 1.5 s\\.`));
      expect(client.elapsedMs).toBeLessThan(BOUND_MS);
      const worker = await timed(() => createWorker(workerOptions({ temporalAddress: silent.address, temporal: { connectTimeoutMs: 1500 } })));
      expect(worker.error.message).toMatch(new RegExp(`^Cannot connect to the Temporal server at ${silent.address}: no answer within 1.5 s\\.`));
      expect(worker.elapsedMs).toBeLessThan(BOUND_MS);
    } finally {
      await silent.close();
    }
  });

  test('an API key against a plaintext server: TLS is named as the problem, the key is never shown', async () => {
    const key = 'sk-never-shown-4242';
    const run = await runCliCaptured(['list', '--address', testAddress(), '--api-key', key]);
    expect(run.code).toBe(1);
    const text = run.err.join('\n');
    expect(text).toContain(`Cannot connect to the Temporal server at ${testAddress()} over TLS: the server does not answer in TLS`);
    expect(text).toContain('TEMPORAL_TLS=false');
    expect(text).not.toContain(key);
    const worker = await timed(() => createWorker(workerOptions({ temporalAddress: testAddress(), temporal: { apiKey: key } })));
    expect(worker.error.message).toContain(`at ${testAddress()} over TLS: the server does not answer in TLS`);
    expect(worker.error.message).not.toContain(key);
  });
});
