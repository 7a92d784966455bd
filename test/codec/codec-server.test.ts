import { execFile } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { promisify } from 'node:util';
import { AgentClient } from '../../src/client/agent-client';
import { startCodecServer, type CodecServer } from '../../src/codec/codec-server';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { createEncryptionCodec } from '../../src/codec/encryption-codec';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import { temporalCliPath } from '../helpers/dedicated-dev-server';
import { testAddress, testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';
import { startCodecWorker } from './helpers/codec-worker';
import { startCodecServerProcess } from './helpers/codec-server-process';
import { keySet, keysVar } from './helpers/test-keys';
import { runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

const run = promisify(execFile);
const UI = 'http://localhost:8233';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/** A payload as the Web UI sends it: protobuf JSON, every bytes field base64. */
const uiPayload = (value: unknown) => ({ metadata: { encoding: b64('json/plain') }, data: b64(JSON.stringify(value)) });

/** The data of every payload in `temporal workflow show --output json` (protobuf JSON: base64), as text. */
function payloadTexts(json: string): string[] {
  const texts: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      const { metadata, data } = node as { metadata?: unknown; data?: unknown };
      if (typeof metadata === 'object' && typeof data === 'string') texts.push(text(data));
      else Object.values(node).forEach(walk);
    }
  };
  walk(JSON.parse(json));
  return texts;
}

interface JsonPayloads {
  payloads: { metadata: Record<string, string>; data: string }[];
}

/** A POST as the Web UI makes it; a header given as undefined is left out. */
function post(server: Pick<CodecServer, 'url'>, path: string, body: unknown, headers: Record<string, string | undefined> = {}) {
  const all = Object.entries({ 'Content-Type': 'application/json', 'X-Namespace': 'default', Origin: UI, ...headers });
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: Object.fromEntries(all.filter((entry): entry is [string, string] => entry[1] !== undefined)),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('the codec server (Temporal codec server protocol, as the Web UI calls it)', () => {
  const keys = keySet('k-ui', 'k-old');
  let server: CodecServer;
  let guarded: CodecServer;

  beforeAll(async () => {
    server = await startCodecServer({ codec: createEncryptionCodec(keys), port: 0 });
    guarded = await startCodecServer({ codec: createEncryptionCodec(keys), port: 0, token: 'sesame-42', corsOrigins: [UI, 'https://temporal.example.com'] });
  });
  afterAll(async () => {
    await server?.close();
    await guarded?.close();
  });

  test('POST /encode and /decode take and answer {"payloads":[...]} in protobuf JSON: a round trip through the codec', async () => {
    const original = [uiPayload({ prompt: 'Where is ORD-7?' }), uiPayload('second')];
    const encodedResponse = await post(server, '/encode', { payloads: original });
    expect(encodedResponse.status).toBe(200);
    expect(encodedResponse.headers.get('content-type')).toBe('application/json');
    expect(encodedResponse.headers.get('access-control-allow-origin')).toBe(UI);
    const encoded = (await encodedResponse.json()) as JsonPayloads;
    expect(encoded.payloads).toHaveLength(2);
    for (const payload of encoded.payloads) {
      expect({ encoding: text(payload.metadata.encoding!), keyId: text(payload.metadata['encryption-key-id']!) }).toEqual({ encoding: 'binary/encrypted', keyId: 'k-ui' });
      expect(text(payload.data)).not.toContain('ORD-7');
    }

    const decodedResponse = await post(server, '/decode', encoded);
    expect(decodedResponse.status).toBe(200);
    expect(await decodedResponse.json()).toEqual({ payloads: original });

    // The Web UI also sends payloads that were never encrypted: they come back as they are.
    expect(await (await post(server, '/decode', { payloads: original })).json()).toEqual({ payloads: original });
    // The temporal CLI's endpoint template puts the namespace in the path.
    expect((await post(server, '/default/decode', encoded)).status).toBe(200);
    // What the SDK's codec wrote decodes the same way: the payloads of a history are this format.
    const [fromSdk] = await createEncryptionCodec(keys).encode([{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"sdk"') }]);
    const sdkJson = { payloads: [{ metadata: { encoding: b64('binary/encrypted'), 'encryption-key-id': b64('k-ui') }, data: Buffer.from(fromSdk!.data!).toString('base64') }] };
    expect(await (await post(server, '/decode', sdkJson)).json()).toEqual({ payloads: [uiPayload('sdk')] });
  });

  test('refusals: an unknown key names its id (400), a bad body (400), other paths (404) and methods (405)', async () => {
    const foreign = await createEncryptionCodec(keySet('k-gone')).encode([{ metadata: {}, data: Buffer.from('x') }]);
    const unknown = await post(server, '/decode', {
      payloads: foreign.map((p) => ({ metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])), data: Buffer.from(p.data!).toString('base64') })),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain("encrypted with key 'k-gone': that key is not configured (known: k-ui, k-old)");
    expect((await post(server, '/decode', 'not json')).status).toBe(400);
    expect((await post(server, '/decode', { payload: [] })).status).toBe(400);
    expect((await post(server, '/transcode', { payloads: [] })).status).toBe(404);
    expect((await fetch(`${server.url}/decode`, { headers: { Origin: UI } })).status).toBe(405);
  });

  test('CORS: the preflight of the Web UI origin is answered with origin, headers, methods and credentials; other origins are refused', async () => {
    const preflight = await fetch(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: UI, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-namespace,authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': UI,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type, X-Namespace, Authorization, Authorization-Extras',
      'access-control-max-age': '600',
    });
    const evil = await fetch(`${server.url}/decode`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect((await post(server, '/decode', { payloads: [] }, { Origin: 'https://evil.example' })).status).toBe(403);
    // Not a browser (the temporal CLI, curl): no Origin, no CORS.
    expect((await post(server, '/decode', { payloads: [] }, { Origin: undefined })).status).toBe(200);
  });

  test('with a token: 401 without it or with another one, 200 with it; preflights need none', async () => {
    const body = { payloads: [uiPayload(1)] };
    const without = await post(guarded, '/encode', body);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect(without.headers.get('access-control-allow-origin')).toBe(UI);
    expect((await post(guarded, '/encode', body, { Authorization: 'Bearer sesame-43' })).status).toBe(401);
    expect((await post(guarded, '/encode', body, { Authorization: 'sesame-42' })).status).toBe(401);
    expect((await post(guarded, '/encode', body, { Authorization: 'Bearer sesame-42' })).status).toBe(200);
    expect((await post(guarded, '/encode', body, { Authorization: 'Bearer sesame-42', Origin: 'https://temporal.example.com' })).status).toBe(200);
    const preflight = await fetch(`${guarded.url}/encode`, { method: 'OPTIONS', headers: { Origin: UI, 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
  });

  test('it listens on loopback only, by default', async () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!external) return; // a machine with loopback only: nothing else to try
    await expect(fetch(`http://${external.address}:${server.port}/decode`, { method: 'POST', body: '{"payloads":[]}' })).rejects.toThrow();
  });

  test('`durable-agent codec-server` serves the keys of the environment; `temporal workflow show --codec-endpoint` reads an encrypted run through it', async () => {
    const { AGENT_ENCRYPTION_KEY_FILE: _file, TEMPORAL_CODEC_ENDPOINT: _endpoint, TEMPORAL_CODEC_AUTH: _auth, ...env } = process.env;
    const child = await startCodecServerProcess(['--token', 'open-sesame'], { ...env, AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    try {
      expect(child.started).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), host: '127.0.0.1', port: expect.any(Number), corsOrigins: [UI], token: true, currentKey: 'k-ui' });
      const served = { url: child.started.url };
      expect((await post(served, '/decode', { payloads: [] })).status).toBe(401);
      expect((await post(served, '/decode', { payloads: [] }, { Authorization: 'Bearer open-sesame' })).status).toBe(200);

      const cli = temporalCliPath();
      if (!cli) return; // an external server without the CLI: the protocol is covered above
      const model = await startScriptedModelServer({ script: vaultScript });
      const taskQueue = uniqueTaskQueue('codec-server');
      const worker = await startCodecWorker({ agents: [vaultAgent], taskQueue, modelBaseURL: model.baseURL, dataConverter: encryptedDataConverter(keys) });
      try {
        const client = await AgentClient.connect({ connection: await testConnection(), taskQueue, dataConverter: encryptedDataConverter(keys) });
        const secrets = runSecrets('s3rv');
        const started = await client.start('vault-agent', { prompt: secrets.prompt });
        await waitForPending(started);
        const show = (...extra: string[]) =>
          run(cli, ['workflow', 'show', '--workflow-id', started.workflowId, '--address', testAddress(), '--output', 'json', ...extra], { env, maxBuffer: 16 * 1024 * 1024 });
        expect(payloadTexts((await show()).stdout).some((data) => data.includes(secrets.prompt))).toBe(false);
        const decoded = payloadTexts((await show('--codec-endpoint', child.started.url, '--codec-auth', 'Bearer open-sesame')).stdout);
        expect(decoded.some((data) => data.includes(secrets.prompt))).toBe(true);
        expect(decoded.some((data) => data.includes(secrets.refundArgument))).toBe(true);
      } finally {
        await worker.stop();
        await model.close();
      }
    } finally {
      expect(await child.stop()).toBe(0);
    }
  });
});
