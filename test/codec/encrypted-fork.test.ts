import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { ENCRYPTED_ENCODING, payloadKeyId } from '../../src/codec/encryption-codec';
import type { AgentEvent } from '../../src/common/events';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';
import { startCodecWorker, type RunningWorker } from './helpers/codec-worker';
import { plainTextOf } from './helpers/history-payloads';
import { keySet } from './helpers/test-keys';
import { LOOKUP_RESULT, REFUND_RESULT, runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

describe('an encrypted run forked', () => {
  const keys = keySet('k-fork');
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let client: AgentClient;
  let taskQueue: string;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: vaultScript });
    taskQueue = uniqueTaskQueue('codec-fork');
    worker = await startCodecWorker({ agents: [vaultAgent], taskQueue, modelBaseURL: model.baseURL, dataConverter: encryptedDataConverter(keys) });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue, dataConverter: encryptedDataConverter(keys) });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });

  test("the fork's start input (the conversation it starts from) is encrypted with the current key; the fork reads it and answers right", async () => {
    const secrets = runSecrets('f0rk');
    const run = await client.start('vault-agent', { prompt: secrets.prompt });
    const { pending } = await waitForPending(run);
    await run.approve(pending[0]!.callId);
    const result = await run.result();
    expect(result.output).toBe(`${secrets.answer}: ${LOOKUP_RESULT} for ${secrets.lookupArgument} | ${REFUND_RESULT} on ${secrets.refundArgument}`);
    const events = await run.eventsAfter(0);
    const at = events.filter((event): event is Extract<AgentEvent, { type: 'tool_call_finished' }> => event.type === 'tool_call_finished').at(-1)!.seq;

    const fork = await run.fork({ at });
    const forked = await fork.result();
    // The model read the decrypted conversation (its answer quotes the prompt's tag and both results).
    expect(forked.output).toBe(result.output);
    expect(forked.messages.slice(0, 5)).toEqual(result.messages.slice(0, 5));
    expect((await fork.eventsAfter(0)).some((event) => event.type === 'tool_call_started' || event.type === 'permission_requested')).toBe(false);

    const history = await fork.handle.fetchHistory();
    const input = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    expect(Buffer.from(input.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
    expect(payloadKeyId(input as never)).toBe('k-fork');
    const readable = plainTextOf(history);
    for (const secret of [secrets.prompt, secrets.lookupArgument, secrets.refundArgument, LOOKUP_RESULT, REFUND_RESULT, secrets.answer]) {
      expect({ secret, seen: readable.some((text) => text.includes(secret)) }).toEqual({ secret, seen: false });
    }
  });

  test('a client without the keys cannot read the run, so it starts no fork', async () => {
    const secrets = runSecrets('n0key');
    const run = await client.start('vault-agent', { prompt: secrets.prompt });
    await waitForPending(run);
    const keyless = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    await expect(keyless.get(run.workflowId).fork({ at: 0 })).rejects.toThrow("Cannot read a payload encrypted with key 'k-fork': no encryption keys are configured");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await client.list({ query: `AgentForkOf = '${run.workflowId}'` })).toEqual([]);
    await run.cancel();
  });
});
