import { AgentClient } from '../../src/client/agent-client';
import type { AgentRun } from '../../src/client/agent-run';
import { readModelCall } from '../../src/client/stream/model-call-heartbeat';
import { readLiveDeltas, UnreadableDeltaError } from '../../src/client/stream/live-delta-reader';
import type { StreamItem } from '../../src/client/stream/stream-items';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { ENCRYPTED_ENCODING } from '../../src/codec/encryption-codec';
import type { LiveDelta } from '../../src/common/contracts/live-deltas';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';
import { startCodecWorker, type RunningWorker } from './helpers/codec-worker';
import { keySet, withEnv } from './helpers/test-keys';

/** A word of the answer that must never be on the wire in plain text; the first chunk holds all of it. */
const MARKER = 'PELICAN7Q';
const ANSWER =
  `${MARKER} is the code word. The text a streaming model call writes goes from the worker's live endpoint ` +
  'to the client as payloads its codec encrypted, like everything else of the run, so nobody between them reads it.';
/** Characters a chunk: the marker is whole in the first delta, so plain text on the wire would show it. */
const CHUNK = 24;
const NO_KEYS = { AGENT_ENCRYPTION_KEY_FILE: undefined, AGENT_ENCRYPTION_KEYS: undefined };

const secretWriter = defineAgent({ name: 'secret-writer', instructions: 'Answer.', model: { stream: true } });

interface WireDelta {
  id: string;
  metadata: Record<string, string>;
  data: string;
}

/** The `delta` events of a raw server-sent events body, and whether it ended with `end`. */
function wireDeltas(body: string): { deltas: WireDelta[]; ended: boolean } {
  const deltas: WireDelta[] = [];
  let ended = false;
  for (const block of body.split('\n\n')) {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      const colon = line.indexOf(': ');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
    }
    if (fields.get('event') === 'end') ended = true;
    if (fields.get('event') === 'delta') deltas.push({ id: fields.get('id') ?? '', ...(JSON.parse(fields.get('data')!) as Omit<WireDelta, 'id'>) });
  }
  return { deltas, ended };
}

async function readStream(run: AgentRun): Promise<{ items: StreamItem[]; error?: unknown }> {
  const items: StreamItem[] = [];
  try {
    for await (const item of run.stream()) items.push(item);
  } catch (error) {
    return { items, error };
  }
  return { items };
}

const textOf = (items: StreamItem[]) => items.map((item) => (item.type === 'text_delta' ? item.text : '')).join('');

describe('run.stream() with the encryption codec on', () => {
  const keys = keySet('k-stream');
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let keyed: AgentClient;
  let keyless: AgentClient;
  let wrongKey: AgentClient;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: [{ text: ANSWER, chunkSize: CHUNK }], chunkDelayMs: 150 });
    const taskQueue = uniqueTaskQueue('codec-stream');
    worker = await startCodecWorker({ agents: [secretWriter], taskQueue, modelBaseURL: model.baseURL, dataConverter: encryptedDataConverter(keys) });
    const connection = await testConnection();
    keyed = await AgentClient.connect({ connection, taskQueue, dataConverter: encryptedDataConverter(keys) });
    // As an application without AGENT_ENCRYPTION_KEY_FILE / AGENT_ENCRYPTION_KEYS connects.
    keyless = await withEnv(NO_KEYS, () => AgentClient.connect({ connection, taskQueue }));
    wrongKey = await AgentClient.connect({ connection, taskQueue, dataConverter: encryptedDataConverter(keySet('k-stream')) });
  });

  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });

  test('with the keys the stream gives the answer; on the wire every delta is ciphertext', async () => {
    const run = await keyed.start('secret-writer', { prompt: 'the code word?' });
    const streamed = readStream(run);
    // The live endpoint's address, from the model call's first heartbeat (encrypted too: read with the keys).
    const url = await waitFor(async () => (await readModelCall(run.handle))?.live, 'the model call heartbeat naming its live endpoint', 30_000);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/calls\/[A-Za-z0-9_-]{32}$/);
    // The whole call from its start, as the endpoint sends it (it keeps the call a while after it ends).
    const response = await fetch(`${url}?from=0`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(200);
    const body = await response.text();

    const { items, error } = await streamed;
    expect(error).toBeUndefined();
    const streamedText = textOf(items);
    expect(streamedText).toBe(ANSWER);
    expect(streamedText).toContain(MARKER);
    expect(items.filter((item) => item.type === 'text_delta').length).toBeGreaterThan(1);
    expect(await run.result()).toMatchObject({ status: 'completed', output: ANSWER });

    // The raw body: every delta an encrypted payload, nothing of the answer readable in it.
    const { deltas, ended } = wireDeltas(body);
    expect(ended).toBe(true);
    expect(deltas.length).toBe(Math.ceil(ANSWER.length / CHUNK));
    expect(body).not.toContain(MARKER);
    for (const delta of deltas) {
      expect(Buffer.from(delta.metadata.encoding!, 'base64').toString()).toBe(ENCRYPTED_ENCODING);
      expect(Buffer.from(delta.metadata['encryption-key-id'] ?? '', 'base64').toString()).toBe('k-stream');
      const bytes = Buffer.from(delta.data, 'base64').toString('latin1');
      expect(bytes).not.toContain(MARKER);
      expect(bytes).not.toContain('"text"');
    }

    // The same wire, read as the client reads it: with the keys, the answer; without, or with another key, an error.
    const read = async (client: AgentClient) => {
      const pieces: LiveDelta[] = [];
      const end = await readLiveDeltas(url, 0, client.client.workflow, (_position, delta) => pieces.push(delta));
      return { end, text: pieces.map((piece) => (piece.type === 'text' ? piece.text : '')).join('') };
    };
    expect(await read(keyed)).toEqual({ end: 'ended', text: ANSWER });
    await expect(read(keyless)).rejects.toThrow(UnreadableDeltaError);
    await expect(read(keyless)).rejects.toThrow(/could not be decoded: Cannot read a payload encrypted with key 'k-stream': no encryption keys are configured/);
    await expect(read(wrongKey)).rejects.toThrow(UnreadableDeltaError);
  }, 60_000);

  test('without the keys the stream fails with the reason; it gives no text', async () => {
    const run = await keyed.start('secret-writer', { prompt: 'the code word?' });
    const { items, error } = await readStream(keyless.get(run.workflowId));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("Cannot read a payload encrypted with key 'k-stream': no encryption keys are configured");
    expect(items.filter((item) => item.type === 'text_delta' || item.type === 'tool_call_delta')).toEqual([]);
    // The run itself is not harmed: with the keys it completes with its answer.
    expect(await run.result()).toMatchObject({ status: 'completed', output: ANSWER });
  }, 60_000);
});
