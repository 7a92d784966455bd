import { AgentClient } from '../../src/client/agent-client';
import { Connection } from '@temporalio/client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import type { PendingCall } from '../../src/common/run';
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
  workflowId: string;
  agent?: string;
  status?: string;
  pending?: PendingCall[];
  unreadable?: { reason: string; message: string };
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
    const listed = JSON.parse(json.out.join('\n')) as Listed[];
    expect(listed).toHaveLength(2);
    expect(listed).toContainEqual({ workflowId: encryptedRun, agent: 'vault-agent', status: 'awaiting_approval', unreadable: { reason: 'undecryptable', message: MISSING_KEY } });
    expect(listed.find((run) => run.workflowId === plainRun)).toMatchObject({ agent: 'vault-agent', status: 'awaiting_approval', pending: [{ tool: 'refund' }] });

    // The MCP server's list_pending says the same: the readable run's call, and the unreadable run with why.
    const keyless = await withEnv(NO_KEYS, () => AgentClient.connect({ connection: connection! }));
    const listPending = RUN_TOOLS.find((tool) => tool.name === 'list_pending')!;
    const answered = JSON.parse(((await listPending.call({} as never, keyless)).content[0] as { text: string }).text) as Array<Record<string, unknown>>;
    expect(answered).toContainEqual(expect.objectContaining({ runId: plainRun, tool: 'refund', kind: 'approval' }));
    expect(answered).toContainEqual({ runId: encryptedRun, agent: 'vault-agent', status: 'awaiting_approval', unreadable: { reason: 'undecryptable', message: MISSING_KEY } });

    // With the keys both are read, and nothing is amiss.
    const withKeys = await cli(['pending', '--json'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(withKeys.code).toBe(0);
    const read = JSON.parse(withKeys.out.join('\n')) as Listed[];
    expect(read.map((run) => [run.workflowId, run.pending?.map((call) => call.tool)]).sort()).toEqual([[encryptedRun, ['refund']], [plainRun, ['refund']]].sort());
  });

  serverTest('a run whose worker is gone is no_answer after 5 s; the others are still listed', async () => {
    await encryptedWorker!.stop();
    encryptedWorker = undefined;
    const text = await cli(['pending'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(text.code).toBe(4);
    expect(text.out).toContain(`${encryptedRun}  awaiting_approval  unreadable (no_answer): no worker answered its state query within 5 s`);
    expect(text.out.some((line) => line.startsWith(`${plainRun}  approval  `))).toBe(true);
    const json = await cli(['pending', '--json'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.out.join('\n'))).toContainEqual({
      workflowId: encryptedRun,
      agent: 'vault-agent',
      status: 'awaiting_approval',
      unreadable: { reason: 'no_answer', message: 'no worker answered its state query within 5 s' },
    });
  }, 60_000);
});
