import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { isEncryptedPayload } from '../../src/codec/encryption-codec';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';
import { startCodecWorker, type RunningWorker } from './helpers/codec-worker';
import { historyPayloads } from './helpers/history-payloads';
import { keySet, withEnv } from './helpers/test-keys';
import { LOOKUP_RESULT, REFUND_RESULT, runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

interface SeenCall {
  workflowId: string;
  activityType: string;
  isLocal: boolean;
  args: string;
  result?: string;
}

describe("extension points: the user's interceptors and data converter with the agent's own", () => {
  const keys = keySet('k-ext');
  const seen: SeenCall[] = [];
  // A user's activity interceptor: an audit log of every activity with its arguments and result.
  const audit: ActivityInterceptorsFactory = (ctx) => ({
    inbound: {
      async execute(input, next) {
        const call: SeenCall = { workflowId: ctx.info.workflowExecution?.workflowId ?? '', activityType: ctx.info.activityType, isLocal: ctx.info.isLocal, args: JSON.stringify(input.args) };
        seen.push(call);
        const result = await next(input);
        call.result = JSON.stringify(result);
        return result;
      },
    },
  });
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let taskQueue: string;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: vaultScript });
    taskQueue = uniqueTaskQueue('codec-ext');
    worker = await startCodecWorker({
      agents: [vaultAgent],
      taskQueue,
      modelBaseURL: model.baseURL,
      dataConverter: encryptedDataConverter(keys),
      interceptors: { activity: [audit] },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });

  test("createWorker({ interceptors }) sees every agent activity with decrypted arguments while history stays encrypted; AgentClient.connect({ dataConverter }) reads the result", async () => {
    const secrets = runSecrets('x5t1');
    // The client's converter is given in code; the environment has no keys (it would be ignored anyway).
    const client = await withEnv({ AGENT_ENCRYPTION_KEY_FILE: undefined, AGENT_ENCRYPTION_KEYS: undefined }, async () =>
      AgentClient.connect({ connection: await testConnection(), taskQueue, dataConverter: encryptedDataConverter(keys) }),
    );
    const run = await client.start('vault-agent', { prompt: secrets.prompt });
    const [call] = (await waitForPending(run)).pending;
    await run.approve(call!.callId);
    const result = await run.result();
    expect(result.output).toBe(`${secrets.answer}: ${LOOKUP_RESULT} for ${secrets.lookupArgument} | ${REFUND_RESULT} on ${secrets.refundArgument}`);

    const ofRun = seen.filter((entry) => entry.workflowId === run.workflowId);
    const types = new Set(ofRun.map((entry) => `${entry.activityType}${entry.isLocal ? ' (local)' : ''}`));
    expect(types).toEqual(new Set(['describeAgent (local)', 'callModel', 'prepareToolCalls (local)', 'executeTool']));
    // The interceptor runs after the codec: it sees values, not ciphertext.
    const tools = ofRun.filter((entry) => entry.activityType === 'executeTool');
    expect(tools.map((entry) => entry.args).join('\n')).toContain(secrets.refundArgument);
    expect(tools.map((entry) => entry.result).join('\n')).toContain(`${REFUND_RESULT} on ${secrets.refundArgument}`);
    expect(ofRun.find((entry) => entry.activityType === 'callModel' && entry.result?.includes(secrets.answer))).toBeDefined();

    // ... and what it saw went to the server encrypted.
    const activityPayloads = historyPayloads(await run.handle.fetchHistory()).filter((found) => /^activityTask(Scheduled|Completed)EventAttributes\.(input|result)\./.test(found.path));
    expect(activityPayloads.length).toBeGreaterThanOrEqual(6);
    expect(activityPayloads.every((found) => isEncryptedPayload(found.payload))).toBe(true);

    // A client without the converter (and without keys) cannot read that result, and says why.
    const plain = await withEnv({ AGENT_ENCRYPTION_KEY_FILE: undefined, AGENT_ENCRYPTION_KEYS: undefined }, async () =>
      AgentClient.connect({ connection: await testConnection(), taskQueue }),
    );
    await expect(plain.get(run.workflowId).result()).rejects.toThrow("Cannot read a payload encrypted with key 'k-ext': no encryption keys are configured.");
  });
});
