import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import OpenAI, { APIConnectionError } from 'openai';
import { keepAliveFetch } from '../../src/model/keep-alive-fetch';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

describe('the model client transport (keep-alive node:http under the openai client)', () => {
  let server: Server;
  let base: string;
  let handler: Handler = () => undefined;
  const ports: number[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      ports.push(request.socket.remotePort!);
      // The handler of the test the request came in for: an aborted request of an earlier test may end after the next test set its own.
      const handle = handler;
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => handle(request, body, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('sends the method, headers and body; gives the status, headers and body; keeps the socket for the next request', async () => {
    const seen: { method?: string; type?: string; body?: string }[] = [];
    handler = (request, body, response) => {
      seen.push({ method: request.method, type: request.headers['content-type'], body });
      response.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r1' }).end('{"ok":true}');
    };
    const send = keepAliveFetch();
    ports.length = 0;
    for (let i = 0; i < 2; i++) {
      const response = await send(`${base}/v1/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"n":${i}}` });
      expect({ status: response.status, statusText: response.statusText, id: response.headers.get('x-request-id'), body: await response.json() }).toEqual({ status: 201, statusText: 'Made', id: 'r1', body: { ok: true } });
    }
    expect(seen).toEqual([
      { method: 'POST', type: 'application/json', body: '{"n":0}' },
      { method: 'POST', type: 'application/json', body: '{"n":1}' },
    ]);
    expect(new Set(ports).size).toBe(1);
  });

  test('a gzip body comes decoded, an error status with its body, a 204 without one', async () => {
    const send = keepAliveFetch();
    handler = (_request, _body, response) => response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(gzipSync('hello, unzipped'));
    const zipped = await send(`${base}/zip`);
    expect({ text: await zipped.text(), encoding: zipped.headers.get('content-encoding') }).toEqual({ text: 'hello, unzipped', encoding: null });
    handler = (_request, _body, response) => response.writeHead(429, { 'retry-after': '3' }).end('{"error":{"message":"slow down"}}');
    const limited = await send(`${base}/busy`);
    expect({ status: limited.status, retry: limited.headers.get('retry-after'), body: await limited.text() }).toEqual({ status: 429, retry: '3', body: '{"error":{"message":"slow down"}}' });
    handler = (_request, _body, response) => response.writeHead(204).end();
    expect((await send(`${base}/none`, { method: 'DELETE' })).status).toBe(204);
  });

  test('a streamed body is read as it is written, and an abort ends the request with an AbortError', async () => {
    const send = keepAliveFetch();
    let finish!: () => void;
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      finish = () => response.end('data: two\n\n');
    };
    const streamed = await send(`${base}/stream`);
    const reader = streamed.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: two\n\n');
    expect((await reader.read()).done).toBe(true);

    handler = () => undefined;
    const controller = new AbortController();
    const pending = send(`${base}/never`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(send(`${base}/never`, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('an exchange over leaves no listener on the caller’s signal; an abort while the body is read ends the body', async () => {
    const send = keepAliveFetch();
    const caller = new AbortController();
    handler = (_request, _body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    for (let i = 0; i < 3; i++) expect(await (await send(`${base}/done`, { signal: caller.signal })).json()).toEqual({ ok: true });
    handler = (_request, _body, response) => response.writeHead(500).end('no');
    expect(await (await send(`${base}/failed`, { signal: caller.signal })).text()).toBe('no');
    // A listener left on a signal that outlives the call kept the response, and the activity's context, in memory.
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
    };
    const midway = new AbortController();
    const reader = (await send(`${base}/half`, { signal: midway.signal })).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
    midway.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    expect(getEventListeners(midway.signal, 'abort')).toHaveLength(0);
  });

  test('under the openai client: a completion, and a server that is not there as its connection error', async () => {
    handler = (request, body, response) => {
      if (request.url !== '/v1/chat/completions') return;
      const { model } = JSON.parse(body) as { model: string };
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }),
      );
    };
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'none', maxRetries: 0, fetch: keepAliveFetch() });
    const completion = await client.chat.completions.create({ model: 'tiny', messages: [{ role: 'user', content: 'hello' }] });
    expect({ text: completion.choices[0]!.message.content, model: completion.model, tokens: completion.usage?.total_tokens }).toEqual({ text: 'hi', model: 'tiny', tokens: 4 });
    const nowhere = new OpenAI({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'none', maxRetries: 0, fetch: keepAliveFetch() });
    await expect(nowhere.chat.completions.create({ model: 'tiny', messages: [{ role: 'user', content: 'hello' }] })).rejects.toBeInstanceOf(APIConnectionError);
  });
});
