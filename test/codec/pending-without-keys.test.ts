import { AgentClient } from '../../src/client/agent-client';
import { Connection } from '@temporalio/client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import type { WaitingCall } from '../../src/common/contracts/published-waits';
import { AGENT_NAME, AGENT_STATUS } from '../../src/common/search-attributes';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { RUN_TOOLS } from '../../src/mcp-server/run-tools';
import { runCliCaptured } from '../helpers/cli-capture';
import { startDedicatedDevServer, startWorkerAt, temporalCliPath, type DedicatedDevServer } from '../helpers/dedicated-dev-server';
import { uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { keySet, keysVar, withEnv } from './helpers/test-keys';
import { runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

// `pending` without an id lists every waiting run of the namespace, so this file has a server of its own.
const cliPath = temporalCliPath();
if (!cliPath) console.log('pending-without-keys tests skipped: TEMPORAL_TEST_CLI is unset, so no dedicated dev server can be started');
const serverTest = cliPath ? test : test.skip;

const NO_KEYS = { AGENT_ENCRYPTION_KEY_FILE: undefined, AGENT_ENCRYPTION_KEYS: undefined };
const MISSING_KEY =
  "Cannot read a payload encrypted with key 'k-pending': no encryption keys are configured. Set AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS (CLI: --encryption-key-file PATH).";

interface Listed {
  calls: WaitingCall[];
  unreadable: { workflowId: string; agent?: string; status?: string; unreadable: { reason: string; message: string } }[];
}

describe('pending lists every waiting run visibility shows, and marks those it cannot read', () => {
  const keys = keySet('k-pending');
  let server: DedicatedDevServer | undefined;
  let model: ScriptedModelServer | undefined;
  let encryptedWorker: { stop(): Promise<void> } | undefined;
  let plainWorker: { stop(): Promise<void> } | undefined;
  let connection: Connection | undefined;
  let encryptedRun: string;
  let plainRun: string;

  const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
    withEnv({ ...NO_KEYS, ...env }, () => runCliCaptured([...args, '--address', server!.address]));

  beforeAll(async () => {
    if (!cliPath) return;
    server = await startDedicatedDevServer(cliPath);
    model = await startScriptedModelServer({ script: vaultScript });
    const encryptedQueue = uniqueTaskQueue('pending-encrypted');
    const plainQueue = uniqueTaskQueue('pending-plain');
    encryptedWorker = await startWorkerAt(server.address, [vaultAgent], encryptedQueue, model.baseURL, { dataConverter: encryptedDataConverter(keys) });
    plainWorker = await startWorkerAt(server.address, [vaultAgent], plainQueue, model.baseURL);
    connection = await Connection.connect({ address: server.address });
    const encrypted = await AgentClient.connect({ connection, taskQueue: encryptedQueue, dataConverter: encryptedDataConverter(keys) });
    const plain = await AgentClient.connect({ connection, taskQueue: plainQueue });
    const [a, b] = await Promise.all([encrypted.start('vault-agent', { prompt: runSecrets('p3nd').prompt }), plain.start('vault-agent', { prompt: runSecrets('p1ain').prompt })]);
    await Promise.all([waitForPending(a), waitForPending(b)]);
    [encryptedRun, plainRun] = [a.workflowId, b.workflowId];
    // Visibility shows both as waiting.
    await waitFor(async () => ((await plain.list({ query: `AgentStatus = 'awaiting_approval'` })).length === 2 ? true : undefined), 'both runs in visibility');
  }, 120_000);

  afterAll(async () => {
    await connection?.close();
    await encryptedWorker?.stop();
    await plainWorker?.stop();
    await model?.close();
    await server?.dispose();
  });

  serverTest('without the keys: the readable run with its calls, the encrypted one as undecryptable, exit code 4', async () => {
    const text = await cli(['pending']);
    expect(text.code).toBe(4);
    expect(text.out).toContain(`${encryptedRun}  awaiting_approval  unreadable (undecryptable): ${MISSING_KEY}`);
    expect(text.out.some((line) => line.startsWith(`${plainRun}  approval  `))).toBe(true);
    expect(text.out).not.toContain('Nothing is waiting.');
    expect(text.err).toEqual(['1 waiting run could not be read, so its calls are not listed (exit code 4).']);

    const json = await cli(['pending', '--json']);
    expect(json.code).toBe(4);
    const listed = JSON.parse(json.out.join('\n')) as Listed;
    expect(listed.unreadable).toEqual([{ workflowId: encryptedRun, agent: 'vault-agent', status: 'awaiting_approval', unreadable: { reason: 'undecryptable', message: MISSING_KEY } }]);
    expect(listed.calls).toEqual([expect.objectContaining({ workflowId: plainRun, agent: 'vault-agent', tool: 'refund', kind: 'approval' })]);

    // The MCP server's list_pending says the same: the readable run's call, and the unreadable run with why.
    const keyless = await withEnv(NO_KEYS, () => AgentClient.connect({ connection: connection! }));
    const listPending = RUN_TOOLS.find((tool) => tool.name === 'list_pending')!;
    const answered = JSON.parse(((await listPending.call({} as never, keyless)).content[0] as { text: string }).text) as { calls: unknown[]; unreadable: unknown[] };
    expect(answered.calls).toContainEqual(expect.objectContaining({ runId: plainRun, tool: 'refund', kind: 'approval' }));
    expect(answered.unreadable).toContainEqual({ runId: encryptedRun, agent: 'vault-agent', status: 'awaiting_approval', unreadable: { reason: 'undecryptable', message: MISSING_KEY } });

    // With the keys both are read, and nothing is amiss.
    const withKeys = await cli(['pending', '--json'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(withKeys.code).toBe(0);
    const read = JSON.parse(withKeys.out.join('\n')) as Listed;
    expect(read.unreadable).toEqual([]);
    expect(read.calls.map((call) => [call.workflowId, call.tool]).sort()).toEqual([[encryptedRun, 'refund'], [plainRun, 'refund']].sort());
  });

  serverTest('a waiting run whose worker is gone is still listed from what it published: no run is asked', async () => {
    await encryptedWorker!.stop();
    encryptedWorker = undefined;
    const json = await cli(['pending', '--json'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(json.code).toBe(0);
    expect((JSON.parse(json.out.join('\n')) as Listed).calls).toContainEqual(expect.objectContaining({ workflowId: encryptedRun, tool: 'refund' }));
  }, 60_000);

  serverTest('a waiting run that publishes nothing (started before 0.6.0) is asked; with no worker to answer it is no_answer', async () => {
    // A run as an older release leaves it: waiting in visibility, no memo, and here no worker on its queue.
    const raw = await AgentClient.connect({ connection: connection! });
    const older = await raw.client.workflow.start('agentWorkflow', {
      taskQueue: uniqueTaskQueue('pending-older'),
      workflowId: `older-${Date.now()}`,
      args: [{ agent: 'vault-agent', prompt: 'x' }],
      typedSearchAttributes: [
        { key: AGENT_NAME, value: 'vault-agent' },
        { key: AGENT_STATUS, value: 'awaiting_approval' },
      ],
    });
    await waitFor(async () => ((await raw.list({ query: `WorkflowId = '${older.workflowId}'` })).length === 1 ? true : undefined), 'the older run in visibility');
    const text = await cli(['pending'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(text.code).toBe(4);
    expect(text.out.some((line) => line.startsWith(`${older.workflowId}  awaiting_approval  unreadable (no_answer): `))).toBe(true);
    expect(text.out.some((line) => line.startsWith(`${plainRun}  approval  `))).toBe(true);
    await older.terminate('test over');
  }, 60_000);
});
