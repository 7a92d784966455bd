import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { createEncryptionCodec, ENCRYPTED_ENCODING, isEncryptedPayload, payloadKeyId } from '../../src/codec/encryption-codec';
import { denySignal } from '../../src/common/definitions';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startCodecWorker, type RunningWorker } from './helpers/codec-worker';
import { historyPayloads, pathKind, plainTextOf } from './helpers/history-payloads';
import { keySet, withEnv } from './helpers/test-keys';
import { LOOKUP_RESULT, lookupFailure, REFUND_RESULT, runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

describe('with the codec on, the history holds no conversation in plain text', () => {
  const keys = keySet('k-hist');
  let dir: string;
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let client: AgentClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'durable-agent-keys-'));
    const keyFile = join(dir, 'keys.json');
    writeFileSync(keyFile, JSON.stringify(keys), { mode: 0o600 });
    model = await startScriptedModelServer({ script: vaultScript });
    const taskQueue = uniqueTaskQueue('codec-history');
    // The worker takes its keys from AGENT_ENCRYPTION_KEY_FILE, as `npm run worker` does; the client is given its converter.
    worker = await withEnv({ AGENT_ENCRYPTION_KEY_FILE: keyFile, AGENT_ENCRYPTION_KEYS: undefined }, () =>
      startCodecWorker({ agents: [vaultAgent], taskQueue, modelBaseURL: model.baseURL }),
    );
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue, dataConverter: encryptedDataConverter(keys) });
  });

  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('two tool calls (one retried after a failure), a refused signal and an approval by update: every payload is ciphertext under the current key; with the key, all of it is there', async () => {
    const secrets = runSecrets('h7q2');
    const signalReason = 'SIGNAL-REASON-a4c3';
    const run = await client.start('vault-agent', { prompt: secrets.prompt, userId: 'u-secret-9' });

    // Queries pass the codec both ways: the state names the waiting call and its (decrypted) arguments.
    const state = await waitForPending(run);
    const [call] = state.pending;
    expect(call).toMatchObject({ tool: 'refund', input: { order_id: secrets.refundArgument } });
    // A signal the run refuses (the lookup needs no approval) still lands in history with its payload.
    await run.handle.signal(denySignal, { callId: 'call_0_0', reason: signalReason });
    await waitFor(async () => ((await run.eventsAfter(0)).some((event) => event.type === 'input_rejected') ? true : undefined), 'the ignored signal');
    const decision = await run.approve(call!.callId, { input: { order_id: secrets.editedArgument } });
    expect(decision).toMatchObject({ approved: true, input: { order_id: secrets.editedArgument } });

    const result = await run.result();
    expect(result.output).toBe(`${secrets.answer}: ${LOOKUP_RESULT} for ${secrets.lookupArgument} | ${REFUND_RESULT} on ${secrets.editedArgument}`);

    const history = await run.handle.fetchHistory();
    const found = historyPayloads(history);
    const failure = lookupFailure(secrets.lookupArgument);
    const marked = [secrets.prompt, secrets.lookupArgument, secrets.refundArgument, secrets.editedArgument, secrets.answer, LOOKUP_RESULT, REFUND_RESULT, signalReason, failure, 'u-secret-9', 'charged twice'];

    // Without the key: nothing readable anywhere (strings, payload bytes, metadata).
    const readable = plainTextOf(history);
    for (const secret of marked) expect({ secret, seen: readable.some((text) => text.includes(secret)) }).toEqual({ secret, seen: false });
    // The scan does read payload bytes: the AgentName search attribute, which is not encrypted, is seen.
    expect(readable.some((text) => text.includes('"vault-agent"'))).toBe(true);
    // The failed first lookup is recorded with the retry that succeeded; its message is in the encrypted attributes.
    const lastFailure = history.events!.find((event) => event.activityTaskStartedEventAttributes?.lastFailure)?.activityTaskStartedEventAttributes?.lastFailure;
    expect(lastFailure).toMatchObject({ message: 'Encoded failure', stackTrace: '' });

    // Every payload the codec is responsible for is encrypted with the current key. What stays
    // readable is what the SDK never passes a codec: search attributes (the server indexes them),
    // headers (e.g. trace context) and the local-activity marker's own bookkeeping (activity id,
    // type, time). None of it holds a marked string (checked above).
    const plain = [...new Set(found.filter((f) => !isEncryptedPayload(f.payload)).map((f) => pathKind(f.path)))];
    const sdkOwned = (kind: string) =>
      /searchAttributes\.indexedFields\./.test(kind) || /\.header\.fields\./.test(kind) || kind === 'markerRecordedEventAttributes.details.data.payloads[]' ||
      // the patch id of a workflow version marker (e.g. sparse-search-attributes): no user data
      kind === 'markerRecordedEventAttributes.details.patch-data.payloads[]';
    expect(plain.filter((kind) => !sdkOwned(kind))).toEqual([]);
    const encrypted = found.filter((f) => isEncryptedPayload(f.payload));
    expect(new Set(encrypted.map((f) => payloadKeyId(f.payload)))).toEqual(new Set(['k-hist']));
    const encryptedKinds = new Set(encrypted.map((f) => pathKind(f.path)));
    for (const kind of [
      'workflowExecutionStartedEventAttributes.input.payloads[]',
      'userMetadata.summary',
      'activityTaskScheduledEventAttributes.input.payloads[]',
      'activityTaskCompletedEventAttributes.result.payloads[]',
      'markerRecordedEventAttributes.details.result.payloads[]',
      'workflowExecutionSignaledEventAttributes.input.payloads[]',
      'workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest.input.args.payloads[]',
      'workflowExecutionUpdateCompletedEventAttributes.outcome.success.payloads[]',
      'workflowExecutionCompletedEventAttributes.result.payloads[]',
      'activityTaskStartedEventAttributes.lastFailure.encodedAttributes',
    ]) {
      expect({ kind, encrypted: encryptedKinds.has(kind) }).toEqual({ kind, encrypted: true });
    }
    for (const { payload } of encrypted) {
      expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
      expect(payload.data!.length).toBeGreaterThan(12 + 16);
    }

    // With the key: every marked string is back.
    const decoded = await createEncryptionCodec(keys).decode(encrypted.map((f) => f.payload));
    const decrypted = plainTextOf(decoded);
    for (const secret of marked) expect({ secret, seen: decrypted.some((text) => text.includes(secret)) }).toEqual({ secret, seen: true });
  });
});
