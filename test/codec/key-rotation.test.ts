import { AgentClient } from '../../src/client/agent-client';
import { isEncryptedPayload, payloadKeyId } from '../../src/codec/encryption-codec';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';
import { startCodecWorker } from './helpers/codec-worker';
import { historyPayloads } from './helpers/history-payloads';
import { keySet, keysVar, withEnv } from './helpers/test-keys';
import { LOOKUP_RESULT, REFUND_RESULT, runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

/** Worker and client as deployed: keys from AGENT_ENCRYPTION_KEYS only. */
async function deploy(keys: string, taskQueue: string, model: ScriptedModelServer) {
  return withEnv({ AGENT_ENCRYPTION_KEYS: keys, AGENT_ENCRYPTION_KEY_FILE: undefined }, async () => ({
    worker: await startCodecWorker({ agents: [vaultAgent], taskQueue, modelBaseURL: model.baseURL }),
    client: await AgentClient.connect({ connection: await testConnection(), taskQueue }),
  }));
}

describe('key rotation', () => {
  let model: ScriptedModelServer;
  beforeAll(async () => {
    model = await startScriptedModelServer({ script: vaultScript });
  });
  afterAll(async () => model?.close());

  test('a run started under k1 and parked on approval finishes after worker and client restart with {current k2, k1}: old payloads decrypt, new ones use k2', async () => {
    const { keys: k1Only } = keySet('k1');
    const k1 = k1Only.k1 as string;
    const k2 = keySet('k2').keys.k2 as string;
    const taskQueue = uniqueTaskQueue('codec-rotation');
    const secrets = runSecrets('r0t8');

    const before = await deploy(`k1:${k1}`, taskQueue, model);
    const started = await before.client.start('vault-agent', { prompt: secrets.prompt });
    const [call] = (await waitForPending(started)).pending;
    expect(call).toMatchObject({ tool: 'refund', input: { order_id: secrets.refundArgument } });
    await before.worker.stop();
    await before.client.close();
    const parkedAt = (await started.handle.fetchHistory()).events!.length;

    // New deployment: k2 encrypts, k1 still decrypts (the keys as keysVar writes them, current first).
    const after = await deploy(keysVar({ current: 'k2', keys: { k2, k1 } }), taskQueue, model);
    try {
      const run = after.client.get(started.workflowId);
      // The new worker replays the k1 history (its cache is empty) to answer the query and the update.
      expect((await run.state()).pending).toEqual([expect.objectContaining({ callId: call!.callId })]);
      await run.approve(call!.callId);
      const result = await run.result();
      // The model's second call read the whole conversation (k1 and k2 messages) through the query.
      expect(result.output).toBe(`${secrets.answer}: ${LOOKUP_RESULT} for ${secrets.lookupArgument} | ${REFUND_RESULT} on ${secrets.refundArgument}`);

      const events = (await run.handle.fetchHistory()).events!;
      const keyIds = (from: number, to: number) =>
        new Set(
          historyPayloads({ events: events.slice(from, to) })
            .filter((found) => isEncryptedPayload(found.payload))
            .map((found) => payloadKeyId(found.payload)),
        );
      expect(keyIds(0, parkedAt)).toEqual(new Set(['k1']));
      expect(keyIds(parkedAt, events.length)).toEqual(new Set(['k2']));
    } finally {
      await after.worker.stop();
      await after.client.close();
    }

    // A client that knows only k1 now fails on the run's result, naming the key it lacks.
    const stale = await withEnv({ AGENT_ENCRYPTION_KEYS: `k1:${k1}` }, async () => AgentClient.connect({ connection: await testConnection(), taskQueue }));
    await expect(stale.get(started.workflowId).result()).rejects.toThrow(/encrypted with key 'k2': that key is not configured \(known: k1\)/);
  });
});
