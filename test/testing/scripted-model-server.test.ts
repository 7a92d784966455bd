import OpenAI from 'openai';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer, ScriptedTurnInfo } from '../../src/testing/scripted-model-types';
import { scriptedTokenCount } from '../../src/testing/scripted-usage';

const user = (content: string) => ({ role: 'user', content });

type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

async function post(server: ScriptedModelServer, body: unknown): Promise<JsonResponse> {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE response, as raw strings. */
function ssePayloads(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      return event.slice('data: '.length);
    });
}

describe('scripted model server', () => {
  let server: ScriptedModelServer;

  afterEach(async () => {
    await server?.close();
  });

  it('answers a non-streaming request in the OpenAI completion format with derived usage', async () => {
    server = await startScriptedModelServer({ script: ['Hello from the script.'] });
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const response = await post(server, { model: 'm1', messages: [user('What is up?')] });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'm1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello from the script.' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: scriptedTokenCount('What is up?'),
        completion_tokens: scriptedTokenCount('Hello from the script.'),
        total_tokens: scriptedTokenCount('What is up?') + scriptedTokenCount('Hello from the script.'),
      },
    });
    expect(body.usage).toEqual({ prompt_tokens: 3, completion_tokens: 6, total_tokens: 9 });
    expect(body.choices[0].message.tool_calls).toBeUndefined();
  });

  it('streams text in chunkSize pieces, then the finish chunk, the usage chunk and [DONE]', async () => {
    server = await startScriptedModelServer({ script: ['abcdefghij'], chunkSize: 3 });
    const response = await post(server, {
      model: 'm1',
      messages: [user('hi')],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const payloads = ssePayloads(await response.text());
    expect(payloads[payloads.length - 1]).toBe('[DONE]');
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));

    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'm1')).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.slice(1, 5).map((chunk) => chunk.choices[0].delta.content)).toEqual(['abc', 'def', 'ghi', 'j']);
    expect(chunks[5].choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.slice(0, 6).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks[6]).toMatchObject({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 } });
    expect(chunks).toHaveLength(7);
  });

  it('sends no usage chunk when the request does not ask for it', async () => {
    server = await startScriptedModelServer({ script: ['abcdef'], chunkSize: 3 });
    const payloads = ssePayloads(await (await post(server, { model: 'm1', messages: [user('hi')], stream: true })).text());
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('streams parallel tool calls interleaved by index, with id and name only in the first chunk of each', async () => {
    server = await startScriptedModelServer({
      chunkSize: 5,
      script: [
        {
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris' } },
            { name: 'query_order', arguments: '{"order_id": broken', id: 'call_custom' },
          ],
        },
      ],
    });
    const payloads = ssePayloads(await (await post(server, { model: 'm1', messages: [user('go')], stream: true })).text());
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: null, refusal: null });

    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas.slice(0, 4).map((delta) => delta.index)).toEqual([0, 1, 0, 1]);
    expect(deltas[0]).toEqual({ index: 0, id: 'call_0_0', type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(deltas[1]).toEqual({
      index: 1,
      id: 'call_custom',
      type: 'function',
      function: { name: 'query_order', arguments: '' },
    });
    for (const delta of deltas.slice(2)) {
      expect(delta.id).toBeUndefined();
      expect(delta.function.name).toBeUndefined();
      expect(delta.function.arguments.length).toBeLessThanOrEqual(5);
    }
    const argumentsOf = (index: number) =>
      deltas
        .filter((delta) => delta.index === index)
        .map((delta) => delta.function.arguments)
        .join('');
    expect(argumentsOf(0)).toBe('{"city":"Paris"}');
    expect(argumentsOf(1)).toBe('{"order_id": broken');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('repeats the name on the last argument fragment when the turn asks for that quirk', async () => {
    server = await startScriptedModelServer({
      chunkSize: 4,
      script: [{ toolCalls: [{ name: 'query_order', arguments: { order_id: 'A1' } }], nameOnLastFragment: true }],
    });
    const payloads = ssePayloads(await (await post(server, { model: 'm1', messages: [user('go')], stream: true })).text());
    const deltas = payloads
      .slice(0, -1)
      .flatMap((payload) => JSON.parse(payload).choices[0]?.delta.tool_calls ?? []);
    expect(deltas.at(-1).function).toEqual({ name: 'query_order', arguments: '}' });
    expect(deltas.slice(1, -1).every((delta) => delta.function.name === undefined)).toBe(true);
  });

  it('picks the turn by the number of assistant messages, so a repeated request gets the same turn', async () => {
    server = await startScriptedModelServer({ script: ['first', 'second'] });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const ask = async (messages: OpenAI.Chat.ChatCompletionMessageParam[]) =>
      (await client.chat.completions.create({ model: 'm1', messages })).choices[0].message.content;

    expect(await ask([{ role: 'user', content: 'a' }])).toBe('first');
    expect(await ask([{ role: 'user', content: 'a' }])).toBe('first');
    const afterOne: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'first' },
      { role: 'user', content: 'b' },
    ];
    expect(await ask(afterOne)).toBe('second');
    expect(server.requests.map((entry) => entry.turnIndex)).toEqual([0, 0, 1]);
  });

  it('answers 400 naming the missing turn when an array script runs out', async () => {
    server = await startScriptedModelServer({ script: ['only'] });
    const response = await post(server, {
      model: 'm1',
      messages: [user('a'), { role: 'assistant', content: 'only' }, user('b')],
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('No scripted turn 1 for model m1 (the script has 1 turns).');
  });

  it('serves status faults to the first requests of a turn, with headers, then the real reply', async () => {
    server = await startScriptedModelServer({
      script: [
        {
          text: 'finally',
          faults: [
            { status: 503, times: 2 },
            {
              status: 429,
              headers: { 'retry-after': '2' },
              body: { error: { message: 'slow down', code: 'rate_limit_exceeded' } },
            },
          ],
        },
      ],
    });
    const request = { model: 'm1', messages: [user('a')] };
    const first = await post(server, request);
    expect(first.status).toBe(503);
    expect((await first.json()).error.type).toBe('server_error');
    expect((await post(server, request)).status).toBe(503);
    const third = await post(server, request);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('2');
    expect(await third.json()).toEqual({ error: { message: 'slow down', code: 'rate_limit_exceeded' } });
    const fourth = await post(server, request);
    expect(fourth.status).toBe(200);
    expect((await fourth.json()).choices[0].message.content).toBe('finally');
  });

  it('drops the connection before a non-streaming response when afterChunks is 0', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'x', faults: [{ dropConnection: true, afterChunks: 0 }] }] });
    await expect(post(server, { model: 'm1', messages: [user('a')] })).rejects.toThrow('fetch failed');
    expect((await (await post(server, { model: 'm1', messages: [user('a')] })).json()).choices[0].message.content).toBe('x');
  });

  it('drops the connection mid-body of a non-streaming response', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'x', faults: [{ dropConnection: true }] }] });
    const response = await post(server, { model: 'm1', messages: [user('a')] });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow('terminated');
  });

  it('drops the connection mid-stream after the given number of chunks', async () => {
    server = await startScriptedModelServer({
      chunkSize: 2,
      script: [{ text: 'abcdefgh', faults: [{ dropConnection: true, afterChunks: 2 }] }],
    });
    const response = await post(server, { model: 'm1', messages: [user('a')], stream: true });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received += decoder.decode(value);
        }
      })(),
    ).rejects.toThrow('terminated');
    const chunks = ssePayloads(received).map((payload) => JSON.parse(payload));
    expect(chunks).toHaveLength(2);
    expect(chunks[1].choices[0].delta.content).toBe('ab');
  });

  it('ends a stream cleanly without finish chunk or [DONE] when the drop is graceful', async () => {
    server = await startScriptedModelServer({
      chunkSize: 2,
      script: [{ text: 'abcdefgh', faults: [{ dropConnection: true, graceful: true, afterChunks: 3 }] }],
    });
    const response = await post(server, { model: 'm1', messages: [user('a')], stream: true });
    const payloads = ssePayloads(await response.text());
    expect(payloads.map((payload) => JSON.parse(payload).choices[0].delta.content)).toEqual(['', 'ab', 'cd']);
  });

  it('sends half of a non-streaming body when the drop is graceful', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'x', faults: [{ dropConnection: true, graceful: true }] }] });
    const response = await post(server, { model: 'm1', messages: [user('a')] });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith('{"id":"chatcmpl-scripted-1"')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('stalls after the headers of a non-streaming reply, then finishes', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'late', faults: [{ stallMs: 1000 }] }] });
    const started = Date.now();
    const response = await post(server, { model: 'm1', messages: [user('a')] });
    const headersAfter = Date.now() - started;
    const body = await response.json();
    expect(headersAfter).toBeLessThan(800);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(body.choices[0].message.content).toBe('late');
  });

  it('stalls a stream after its first chunk', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'abcd', faults: [{ stallMs: 1000 }] }] });
    const started = Date.now();
    const response = await post(server, { model: 'm1', messages: [user('a')], stream: true });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(Date.now() - started).toBeLessThan(800);
    expect(JSON.parse(ssePayloads(first)[0]).choices[0].delta.role).toBe('assistant');
    while (!(await reader.read()).done) {
      /* drain */
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('lets a model have its own script and lists models', async () => {
    server = await startScriptedModelServer({ script: ['primary says hi'], byModel: { backup: ['backup says hi'] } });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const primary = await client.chat.completions.create({ model: 'main', messages: [{ role: 'user', content: 'a' }] });
    const backup = await client.chat.completions.create({ model: 'backup', messages: [{ role: 'user', content: 'a' }] });
    expect(primary.choices[0].message.content).toBe('primary says hi');
    expect(backup.choices[0].message.content).toBe('backup says hi');
    expect(backup.model).toBe('backup');

    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['scripted-model', 'backup']);
  });

  it('counts fault attempts per model: each model meets the turn faults on its own first requests', async () => {
    server = await startScriptedModelServer({
      script: [{ text: 'ok', faults: [{ status: 500, times: 1 }] }],
    });
    expect((await post(server, { model: 'a', messages: [user('x')] })).status).toBe(500);
    expect((await post(server, { model: 'b', messages: [user('x')] })).status).toBe(500);
    expect((await post(server, { model: 'a', messages: [user('x')] })).status).toBe(200);
  });

  it('runs a dynamic script with the tool results and attempt number of the request', async () => {
    const seen: ScriptedTurnInfo[] = [];
    server = await startScriptedModelServer({
      script: (request, info) => {
        seen.push(info);
        if (info.turnIndex === 0) return { toolCalls: [{ name: 'track_logistics', arguments: { order_id: 'O-1' } }] };
        return `Status: ${info.toolResults.map((result) => `${result.name}=${result.content}`).join(', ')}`;
      },
    });
    const first = await (await post(server, { model: 'm1', messages: [user('Where is O-1?')] })).json();
    const call = first.choices[0].message.tool_calls[0];
    expect(call).toEqual({
      id: 'call_0_0',
      type: 'function',
      function: { name: 'track_logistics', arguments: '{"order_id":"O-1"}' },
    });

    const followUp = {
      model: 'm1',
      messages: [
        user('Where is O-1?'),
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_0_0', content: 'in transit' },
      ],
    };
    await post(server, followUp);
    const second = await (await post(server, followUp)).json();
    expect(second.choices[0].message.content).toBe('Status: track_logistics=in transit');
    expect(seen.map((info) => [info.turnIndex, info.attempt])).toEqual([
      [0, 1],
      [1, 1],
      [1, 2],
    ]);
    expect(seen[1].toolResults).toEqual([
      { toolCallId: 'call_0_0', name: 'track_logistics', arguments: '{"order_id":"O-1"}', content: 'in transit' },
    ]);
    expect(seen[1].lastUserText).toBe('Where is O-1?');
  });

  it('logs every request body with its model', async () => {
    server = await startScriptedModelServer({ script: ['a'] });
    const parameters = { type: 'object', properties: {} };
    const tools = [{ type: 'function', function: { name: 'f', description: 'd', parameters } }];
    const before = Date.now();
    await post(server, { model: 'logged-model', messages: [user('q')], tools, temperature: 0.3 });
    expect(server.requests).toEqual([
      {
        model: 'logged-model',
        turnIndex: 0,
        stream: false,
        body: { model: 'logged-model', messages: [user('q')], tools, temperature: 0.3 },
        at: expect.any(Number),
      },
    ]);
    expect(server.requests[0]!.at).toBeGreaterThanOrEqual(before);
  });

  it("keeps a provider's requests per minute per model: past it a 429 with retry-after, counted", async () => {
    server = await startScriptedModelServer({ script: () => 'a', requestsPerMinute: 2 });
    expect((await post(server, { model: 'm', messages: [user('x')] })).status).toBe(200);
    expect((await post(server, { model: 'm', messages: [user('x')] })).status).toBe(200);
    const refused = await post(server, { model: 'm', messages: [user('x')] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect((await post(server, { model: 'other', messages: [user('x')] })).status).toBe(200);
    expect(server.rateLimited).toBe(1);
  });

  it('restarts fault counting when the script is replaced', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'one', faults: [{ status: 500 }] }] });
    expect((await post(server, { model: 'm', messages: [user('x')] })).status).toBe(500);
    expect((await post(server, { model: 'm', messages: [user('x')] })).status).toBe(200);
    server.setScript([{ text: 'two', faults: [{ status: 502 }] }]);
    expect((await post(server, { model: 'm', messages: [user('x')] })).status).toBe(502);
    expect((await (await post(server, { model: 'm', messages: [user('x')] })).json()).choices[0].message.content).toBe('two');
    server.setScript(['three'], { model: 'other' });
    const other = await (await post(server, { model: 'other', messages: [user('x')] })).json();
    expect(other.choices[0].message.content).toBe('three');
  });

  it('uses per-turn usage overrides', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'x', usage: { promptTokens: 100, completionTokens: 7 } }] });
    const body = await (await post(server, { model: 'm', messages: [user('x')] })).json();
    expect(body.usage).toEqual({ prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 });
  });

  it('rejects a wrong API key with 401 when it has one', async () => {
    server = await startScriptedModelServer({ script: ['a'], apiKey: 'right-key' });
    const wrong = new OpenAI({ baseURL: server.baseURL, apiKey: 'wrong-key', maxRetries: 0 });
    const attempt = wrong.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await expect(attempt).rejects.toMatchObject({ status: 401 });
    const right = new OpenAI({ baseURL: server.baseURL, apiKey: 'right-key', maxRetries: 0 });
    const ok = await right.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(ok.choices[0].message.content).toBe('a');
  });

  it('answers 400 for a body that is not JSON', async () => {
    server = await startScriptedModelServer({ script: ['a'] });
    const response = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(response.status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });

  it('closes while a reply is stalled', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'never', faults: [{ stallMs: 60_000 }] }] });
    const response = await post(server, { model: 'm', messages: [user('x')], stream: true });
    const closing = Date.now();
    await server.close();
    expect(Date.now() - closing).toBeLessThan(1000);
    await expect(response.text()).rejects.toThrow();
  });
});
