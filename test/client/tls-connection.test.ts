import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { createChatModel } from '../../src/model/create-chat-model';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { createWorker, type AgentWorker, type CreateWorkerOptions } from '../../src/worker/create-worker';
import { runCliCaptured, type CliRun } from '../helpers/cli-capture';
import { testAddress, testNamespace, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { createTestPki, hasOpenssl, type TestPki } from '../helpers/test-certs';
import { startTlsProxy, type TlsProxy } from '../helpers/tls-proxy';

const TEST_MODEL = 'scripted-model';
// Generous: a wrong CA must fail in seconds, not after retries; this is no benchmark.
const BOUND_MS = 10_000;

const lookup = defineTool({
  name: 'lookup_order',
  description: 'Look up an order.',
  input: z.object({ order_id: z.string() }),
  readOnly: true,
  execute: ({ order_id }) => `order ${order_id}: shipped`,
});
const agent = defineAgent({ name: 'tls-agent', instructions: 'Answer.', tools: [lookup] });
const script = () => [{ toolCalls: [{ name: 'lookup_order', arguments: { order_id: 'T-1' } }] }, 'Order T-1 has shipped.'];

interface RunningWorker {
  worker: AgentWorker;
  stop(): Promise<void>;
}

async function startWorker(options: Omit<CreateWorkerOptions, 'agents' | 'model' | 'workflowBundle'>, model: ScriptedModelServer): Promise<RunningWorker> {
  const worker = await createWorker({
    agents: [agent],
    model: createChatModel({ baseURL: model.baseURL, apiKey: 'test-key', defaultModel: TEST_MODEL }),
    workflowBundle: workflowBundle(),
    log: () => undefined,
    ...options,
    config: { defaultModel: TEST_MODEL, toolsConfigPath: '/nonexistent/tools.json', ...options.config },
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}

/** The history as text with every payload decoded, to search it for what must never be there. */
function historyText(history: unknown): string {
  return JSON.stringify(history, (key, value: unknown) => (key === 'data' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value));
}

function jsonOf(run: CliRun): any {
  expect(run.err.filter(Boolean)).toEqual([]);
  expect(run.code).toBe(0);
  return JSON.parse(run.out[0]);
}

/** Visibility is eventually consistent: `list` until the run shows up. */
async function listedByCli(workflowId: string, args: string[]): Promise<{ workflowId: string; status: string }[]> {
  for (let i = 0; i < 50; i++) {
    const runs = jsonOf(await runCliCaptured(['list', '--agent', agent.name, '--json', ...args])) as { workflowId: string; status: string }[];
    if (runs.some((r) => r.workflowId === workflowId && r.status === 'completed')) return runs;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${workflowId} never showed up in list`);
}

async function withEnv<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function failsFast(attempt: () => Promise<unknown>): Promise<string> {
  const started = Date.now();
  let message: string | undefined;
  try {
    await attempt();
  } catch (error) {
    message = (error as Error).message;
  }
  expect(Date.now() - started).toBeLessThan(BOUND_MS);
  if (message === undefined) throw new Error('expected the connection to fail');
  return message;
}

const describeTls = hasOpenssl() ? describe : describe.skip;
if (!hasOpenssl()) console.log('TLS connection tests skipped: `openssl` is not on PATH (it makes the test certificates)');

describeTls('TLS: worker, client and CLI through a TLS-terminating proxy in front of the dev server', () => {
  let pki: TestPki;
  let otherPki: TestPki;
  /** Wants a client certificate signed by the CA, like a Temporal Cloud mTLS namespace. */
  let mtlsProxy: TlsProxy;
  /** Server TLS only, like an API-key namespace. */
  let tlsProxy: TlsProxy;
  let model: ScriptedModelServer;

  beforeAll(async () => {
    pki = createTestPki();
    otherPki = createTestPki('another test CA');
    mtlsProxy = await startTlsProxy({ pki, target: testAddress(), requireClientCert: true });
    tlsProxy = await startTlsProxy({ pki, target: testAddress() });
    model = await startScriptedModelServer({ script: script() });
  });
  afterAll(async () => {
    await mtlsProxy?.close();
    await tlsProxy?.close();
    await model?.close();
    pki?.dispose();
    otherPki?.dispose();
  });

  test('mTLS from flags and options: a worker, the AgentClient and the CLI complete a run; list and result work', async () => {
    const taskQueue = uniqueTaskQueue('tls-flags');
    const handshakesBefore = mtlsProxy.handshakes();
    // The worker checks the certificate against the proxy's IP address (no server name given).
    const worker = await startWorker(
      {
        config: {
          temporalAddress: mtlsProxy.address,
          namespace: testNamespace(),
          taskQueue,
          temporal: { tlsCaPath: pki.caCert, tlsCertPath: pki.clientCert, tlsKeyPath: pki.clientKey },
        },
      },
      model,
    );
    const client = await AgentClient.connect({
      address: mtlsProxy.address,
      namespace: testNamespace(),
      taskQueue,
      tlsCaPath: pki.caCert,
      tlsCertPath: pki.clientCert,
      tlsKeyPath: pki.clientKey,
      tlsServerName: 'localhost',
    });
    try {
      model.setScript(script());
      const run = await client.start(agent.name, { prompt: 'Where is order T-1?' });
      expect(await run.result()).toMatchObject({ status: 'completed', output: 'Order T-1 has shipped.', iterations: 2 });

      const flags = [
        '--address', mtlsProxy.address,
        '--tls-ca', pki.caCert,
        '--tls-cert', pki.clientCert,
        '--tls-key', pki.clientKey,
        '--tls-server-name', 'localhost',
        '--task-queue', taskQueue,
      ];
      model.setScript(script());
      const { workflowId } = jsonOf(await runCliCaptured(['start', '--agent', agent.name, '--prompt', 'And now?', '--json', ...flags]));
      expect(jsonOf(await runCliCaptured(['result', workflowId, '--json', ...flags]))).toMatchObject({ status: 'completed', output: 'Order T-1 has shipped.' });
      const listed = await listedByCli(workflowId, flags);
      expect(listed.map((r) => r.workflowId)).toEqual(expect.arrayContaining([workflowId, run.workflowId]));
      expect(mtlsProxy.handshakes()).toBeGreaterThan(handshakesBefore);
    } finally {
      await client.close();
      await worker.stop();
    }
  });

  test('env variables only: API key, CA and server name; the key reaches neither history nor output', async () => {
    const key = 'tls-test-api-key-5d41402abc4b2a76';
    const taskQueue = uniqueTaskQueue('tls-env');
    const logged: string[] = [];
    await withEnv(
      {
        TEMPORAL_ADDRESS: tlsProxy.address,
        TEMPORAL_NAMESPACE: testNamespace(),
        TEMPORAL_TASK_QUEUE: taskQueue,
        TEMPORAL_API_KEY: key,
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
        TEMPORAL_TLS_SERVER_NAME: 'localhost',
      },
      async () => {
        const handshakesBefore = tlsProxy.handshakes();
        // No TEMPORAL_TLS: the API key turns TLS on, as Temporal's loader decides.
        const worker = await startWorker({ log: (line) => logged.push(line) }, model);
        expect(worker.worker.config).toMatchObject({ temporalAddress: tlsProxy.address, taskQueue });
        try {
          model.setScript(script());
          const started = await runCliCaptured(['start', '--agent', agent.name, '--prompt', 'Where is order T-1?', '--json']);
          const { workflowId } = jsonOf(started);
          const result = await runCliCaptured(['result', workflowId, '--json']);
          expect(jsonOf(result)).toMatchObject({ status: 'completed', output: 'Order T-1 has shipped.' });
          const listed = await runCliCaptured(['list', '--agent', agent.name]);
          expect(listed.code).toBe(0);

          const client = await AgentClient.connect();
          try {
            expect(client.config).toMatchObject({ address: tlsProxy.address, taskQueue });
            const history = historyText(await client.get(workflowId).handle.fetchHistory());
            expect(history).toContain('Order T-1 has shipped.');
            expect(history).not.toContain(key);
          } finally {
            await client.close();
          }
          const everything = [started, result, listed].flatMap((r) => [...r.out, ...r.err]).concat(logged, JSON.stringify(worker.worker.config));
          expect(everything.join('\n')).not.toContain(key);
          expect(tlsProxy.handshakes()).toBeGreaterThan(handshakesBefore);
        } finally {
          await worker.stop();
        }
      },
    );
  });

  test('a wrong CA fails at once, naming the address and the untrusted certificate: worker, client, CLI', async () => {
    const trust = { tlsCaPath: otherPki.caCert, tlsCertPath: pki.clientCert, tlsKeyPath: pki.clientKey };
    const expected = new RegExp(`^Cannot connect to the Temporal server at ${tlsProxy.address.replace(/\./g, '\\.')} over TLS: the server's certificate was not trusted \\(.+\\)\\. Give the CA that signed it with --tls-ca`);

    expect(await failsFast(() => AgentClient.connect({ address: tlsProxy.address, ...trust, tlsServerName: 'localhost' }))).toMatch(expected);
    expect(await failsFast(() => startWorker({ config: { temporalAddress: tlsProxy.address, taskQueue: uniqueTaskQueue('tls-wrong-ca'), temporal: trust } }, model))).toMatch(expected);
    const cli = await failsFast(async () => {
      const run = await runCliCaptured(['list', '--address', tlsProxy.address, '--tls-ca', otherPki.caCert, '--tls-server-name', 'localhost']);
      expect(run.code).toBe(1);
      throw new Error(run.err.join('\n').replace(/^Error: /, ''));
    });
    expect(cli).toMatch(expected);
    // The same through env variables.
    const fromEnv = await withEnv({ TEMPORAL_ADDRESS: tlsProxy.address, TEMPORAL_TLS_SERVER_CA_CERT_PATH: otherPki.caCert, TEMPORAL_TLS_SERVER_NAME: 'localhost' }, () =>
      failsFast(() => AgentClient.connect()),
    );
    expect(fromEnv).toMatch(expected);
  });

  test('an mTLS server without a client certificate: the message says a client certificate is wanted', async () => {
    const expected = /over TLS: the server refused the TLS handshake: it wants a client certificate it trusts .*--tls-cert and --tls-key/;
    expect(await failsFast(() => AgentClient.connect({ address: mtlsProxy.address, tlsCaPath: pki.caCert, tlsServerName: 'localhost' }))).toMatch(expected);
    expect(
      await failsFast(() => startWorker({ config: { temporalAddress: mtlsProxy.address, taskQueue: uniqueTaskQueue('tls-no-cert'), temporal: { tlsCaPath: pki.caCert } } }, model)),
    ).toMatch(expected);
  });

  test('a missing certificate file fails before connecting, naming the path', async () => {
    const missing = `${pki.dir}/missing-ca.pem`;
    const run = await runCliCaptured(['list', '--address', tlsProxy.address, '--tls-ca', missing]);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toContain(`Cannot read the TLS server CA certificate ${missing} (set by --tls-ca, TEMPORAL_TLS_SERVER_CA_CERT_PATH or tls.server_ca_cert_path): no such file.`);
  });
});
