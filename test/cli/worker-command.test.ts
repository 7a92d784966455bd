import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { testAddress, testConnection, testNamespace, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const ES_MODULE = join(ROOT, 'test', 'fixtures', 'agents-module', 'agents.mjs');
const TS_MODULE = join(ROOT, 'test', 'fixtures', 'agents-module', 'agents.ts');

/** The environment without anything that configures a worker, so each test sets exactly what it means. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AGENT_|OPENAI_|TEMPORAL_(?!TEST_))/.test(name)));
  return { ...env, ...extra };
}

/** `durable-agent worker`, through tsx (`--import` also loads the ES module's TypeScript imports). */
function spawnEntry(env: NodeJS.ProcessEnv, args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

function healthCheck(healthFile: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'health', '--health-file', healthFile], {
    env: cleanEnv({}),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('durable-agent worker', () => {
  let model: ScriptedModelServer;
  let running: ChildProcess | undefined;

  beforeAll(async () => {
    model = await startScriptedModelServer({
      script: (_req, info) =>
        info.turnIndex === 0 ? { toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] } : { text: info.toolResults.map((r) => r.content).join(' | ') },
    });
  });
  afterAll(async () => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    await model?.close();
  });

  test('missing configuration: it says what to set and exits 0, so `restart: on-failure` leaves it stopped', async () => {
    const entry = spawnEntry(cleanEnv({}));
    expect(await entry.exited).toBe(0);
    const output = entry.output();
    expect(output).toContain('worker not started');
    expect(output).toContain('AGENT_MODULE is not set');
    expect(output).toContain('--module');
    expect(output).toContain('AGENT_DEMO=1');
    expect(output).toContain('set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL');
  });

  test('AGENT_MODULE (an ES module): serves its agents, reports healthy, and stops cleanly on SIGTERM', async () => {
    const taskQueue = uniqueTaskQueue('entry');
    const healthFile = join(mkdtempSync(join(tmpdir(), 'worker-entry-')), 'worker.health');
    expect(healthCheck(healthFile)).toMatchObject({ status: 1, output: expect.stringContaining('does not exist') });

    const entry = spawnEntry(
      cleanEnv({
        TEMPORAL_ADDRESS: testAddress(),
        TEMPORAL_NAMESPACE: testNamespace(),
        TEMPORAL_TASK_QUEUE: taskQueue,
        OPENAI_BASE_URL: model.baseURL,
        AGENT_MODEL: 'scripted-model',
        AGENT_MODULE: ES_MODULE,
        AGENT_WORKFLOW_BUNDLE: workflowBundle().codePath,
        AGENT_HEALTH_FILE: healthFile,
      }),
    );
    running = entry.child;
    await waitFor(async () => (existsSync(healthFile) || entry.child.exitCode !== null ? true : undefined), 'the health file', 60_000);
    expect({ exitCode: entry.child.exitCode, output: entry.output() }).toMatchObject({ exitCode: null });
    expect(entry.output()).toContain(
      `[durable-agent] worker for greeter on ${testAddress()}, namespace ${testNamespace()}, task queue ${taskQueue}; unversioned; no metrics; no tracing; payloads not encrypted; no webhooks; live deltas at http://127.0.0.1:`,
    );
    const healthy = await waitFor(async () => {
      const check = healthCheck(healthFile);
      return check.status === 0 ? check : undefined;
    }, 'a healthy check');
    expect(healthy.output).toBe('healthy: state RUNNING, workflow poller POLLING, activity poller POLLING\n');

    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('greeter', { prompt: 'Greet Ada' });
    expect((await run.result()).output).toBe('Hello, Ada, from the mounted module');

    entry.child.kill('SIGTERM');
    expect(await entry.exited).toBe(0);
    expect(existsSync(healthFile)).toBe(false);
    expect(healthCheck(healthFile).status).toBe(1);
  });

  test('every setting as a flag: a TypeScript module, run as it is; the start line says what is on', async () => {
    const taskQueue = uniqueTaskQueue('entry-flags');
    const keys = `k-worker:${Buffer.alloc(32, 7).toString('base64')}`;
    const entry = spawnEntry(cleanEnv({ AGENT_ENCRYPTION_KEYS: keys, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', AGENT_WEBHOOKS: '[{"url":"http://127.0.0.1:9/hook"}]', AGENT_INBOX_URL: 'http://inbox.example' }), [
      '--module', TS_MODULE,
      '--address', testAddress(),
      '--namespace', testNamespace(),
      '--task-queue', taskQueue,
      '--model-url', model.baseURL,
      '--model', 'scripted-model',
      '--workflow-bundle', workflowBundle().codePath,
      '--deployment-name', 'greeters',
      '--build-id', 'b1',
      '--versioning-behavior', 'auto-upgrade',
      '--metrics', '127.0.0.1:0',
      '--live-address', '127.0.0.1:0', '--live-url', 'http://worker-7.internal:7300',
    ]);
    running = entry.child;
    const line = await waitFor(async () => entry.output().split('\n').find((l) => l.startsWith('[durable-agent] worker for')) ?? (entry.child.exitCode !== null ? entry.output() : undefined), 'the start line', 60_000);
    expect(line).toBe(
      `[durable-agent] worker for ts-greeter on ${testAddress()}, namespace ${testNamespace()}, task queue ${taskQueue}; version greeters.b1 (auto_upgrade); ` +
        `metrics at http://127.0.0.1:0/metrics; tracing to http://127.0.0.1:9/v1/traces (OTLP http/protobuf); payloads are encrypted with key 'k-worker' (AES-256-GCM); 1 key(s) decrypt: k-worker; 1 webhook(s), inbox links to http://inbox.example; ` +
        'live deltas at http://worker-7.internal:7300',
    );
    entry.child.kill('SIGTERM');
    expect(await entry.exited).toBe(0);
  });

  test('a versioning behaviour it does not know is a usage error that lists the choices', async () => {
    const entry = spawnEntry(cleanEnv({}), ['--demo', '--versioning-behavior', 'pinnned']);
    expect(await entry.exited).toBe(2);
    expect(entry.output()).toContain("Unknown value 'pinnned' for --versioning-behavior (one of pinned, auto-upgrade). Did you mean 'pinned'?");
  });
});
