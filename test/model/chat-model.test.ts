import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { FailureTypes } from '../../src/common/failures';
import type { Message } from '../../src/common/messages';
import type { ChatModelRequest } from '../../src/model/chat-model-types';
import { createChatModel } from '../../src/model/create-chat-model';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer, ScriptedTurn, StatusFault } from '../../src/testing/scripted-model-types';

const tools = [
  {
    name: 'get_weather',
    description: 'Weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  {
    name: 'query_order',
    description: 'Look up an order.',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
];

/** A conversation with `turn` assistant messages, so the scripted server answers turn `turn`. */
function conversationAtTurn(turn: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Where is my order ORD-1 and how is the weather in Paris?' }];
  for (let index = 0; index < turn; index++) {
    messages.push({ role: 'assistant', content: `earlier answer ${index}` }, { role: 'user', content: 'and then?' });
  }
  return messages;
}

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApplicationFailure);
    return error as ApplicationFailure;
  }
  throw new Error('expected the call to fail');
}

describe('createChatModel', () => {
  let server: ScriptedModelServer;

  afterEach(async () => {
    await server?.close();
  });

  describe('streaming and non-streaming give the same result', () => {
    const turns: ScriptedTurn[] = [
      {
        text: 'Let me check both for you.',
        toolCalls: [
          { name: 'query_order', arguments: { order_id: 'ORD-1' } },
          { name: 'get_weather', arguments: { city: 'Paris', note: 'unicode ü and "quotes"' } },
        ],
        usage: { promptTokens: 40, completionTokens: 12 },
      },
      {
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Oslo' } },
          { name: 'query_order', arguments: '{"order_id": ORD-2' },
        ],
      },
      'Your order ORD-1 ships tomorrow; Paris is sunny.',
      {},
      { toolCalls: [{ name: 'query_order', arguments: { order_id: 'ORD-3' } }], nameOnLastFragment: true },
      {
        toolCalls: [
          { id: 'dup', name: 'get_weather', arguments: { city: 'Rome' } },
          { id: 'dup', name: 'query_order', arguments: { order_id: 'ORD-4' } },
          { id: null, name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
    ];

    beforeEach(async () => {
      server = await startScriptedModelServer({ script: turns, chunkSize: 3 });
    });

    const both = async (turn: number) => {
      const model = createChatModel({ baseURL: server.baseURL, apiKey: 'test-key', defaultModel: 'gpt-test' });
      const request = (stream: boolean): ChatModelRequest => ({
        messages: conversationAtTurn(turn),
        tools,
        settings: { stream },
      });
      const plain = await model.complete(request(false));
      const streamed = await model.complete(request(true));
      expect(server.requests.map((entry) => [entry.turnIndex, entry.stream])).toEqual([
        [turn, false],
        [turn, true],
      ]);
      return { plain, streamed };
    };

    it('for text with parallel tool calls', async () => {
      const { plain, streamed } = await both(0);
      expect(streamed).toEqual(plain);
      expect(plain).toEqual({
        message: {
          role: 'assistant',
          content: 'Let me check both for you.',
          toolCalls: [
            { id: 'call_0_0', name: 'query_order', arguments: '{"order_id":"ORD-1"}' },
            { id: 'call_0_1', name: 'get_weather', arguments: '{"city":"Paris","note":"unicode ü and \\"quotes\\""}' },
          ],
          model: 'gpt-test',
        },
        usage: { promptTokens: 40, completionTokens: 12, totalTokens: 52 },
        model: 'gpt-test',
        finishReason: 'tool_calls',
      });
    });

    it('for tool calls without text, one with invalid JSON arguments', async () => {
      const { plain, streamed } = await both(1);
      expect(streamed).toEqual(plain);
      expect(plain.message.content).toBeNull();
      expect(plain.message.toolCalls).toEqual([
        { id: 'call_1_0', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { id: 'call_1_1', name: 'query_order', arguments: '{"order_id": ORD-2' },
      ]);
      expect(plain.usage.totalTokens).toBe(plain.usage.promptTokens + plain.usage.completionTokens);
      expect(plain.usage.completionTokens).toBeGreaterThan(0);
    });

    it('for a text reply', async () => {
      const { plain, streamed } = await both(2);
      expect(streamed).toEqual(plain);
      expect(plain.message).toEqual({
        role: 'assistant',
        content: 'Your order ORD-1 ships tomorrow; Paris is sunny.',
        model: 'gpt-test',
      });
      expect(plain.finishReason).toBe('stop');
      expect(plain.usage.completionTokens).toBe(Math.ceil('Your order ORD-1 ships tomorrow; Paris is sunny.'.length / 4));
    });

    it('for an empty reply', async () => {
      const { plain, streamed } = await both(3);
      expect(streamed).toEqual(plain);
      expect(plain.message).toEqual({ role: 'assistant', content: '', model: 'gpt-test' });
      expect(plain.usage.completionTokens).toBe(0);
    });

    it('when the provider repeats the tool name on the last fragment (AgentScope #1216)', async () => {
      const { plain, streamed } = await both(4);
      expect(streamed).toEqual(plain);
      expect(streamed.message.toolCalls).toEqual([{ id: 'call_4_0', name: 'query_order', arguments: '{"order_id":"ORD-3"}' }]);
    });

    it('when calls share an id or have none: each stays its own call', async () => {
      const { plain, streamed } = await both(5);
      expect(streamed).toEqual(plain);
      expect(plain.message.toolCalls).toEqual([
        { id: 'dup', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { id: 'dup', name: 'query_order', arguments: '{"order_id":"ORD-4"}' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ]);
    });
  });

  it('reports the growing text while streaming, and the final text once without streaming', async () => {
    server = await startScriptedModelServer({ script: ['abcdefgh'], chunkSize: 3 });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'm' });
    const streamed: string[] = [];
    let chunks = 0;
    await model.complete(
      { messages: conversationAtTurn(0), tools: [], settings: { stream: true } },
      { onText: (text) => streamed.push(text), onChunk: () => chunks++ },
    );
    expect(streamed).toEqual(['abc', 'abcdef', 'abcdefgh']);
    // role chunk, 3 text chunks, finish chunk, usage chunk
    expect(chunks).toBe(6);

    const plain: string[] = [];
    await model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }, { onText: (text) => plain.push(text) });
    expect(plain).toEqual(['abcdefgh']);
  });

  it('sends the request shaping fields, converted messages and tools', async () => {
    server = await startScriptedModelServer({ script: (_request, info) => (info.turnIndex === 1 ? 'done' : 'unexpected') });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'default-model' });
    const messages: Message[] = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Order ORD-9?' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'call_a', name: 'query_order', arguments: '{"order_id":"ORD-9"}' }],
        model: 'other-model',
      },
      {
        role: 'tool',
        toolCallId: 'call_a',
        name: 'query_order',
        content: 'shipped',
        state: 'success',
        blocks: [{ type: 'json', data: { a: 1 } }],
      },
    ];
    const result = await model.complete({
      model: 'requested-model',
      messages,
      tools,
      settings: {
        name: 'settings-model',
        stream: true,
        temperature: 0.2,
        maxTokens: 321,
        toolChoice: 'required',
        parallelToolCalls: false,
        extraBody: { seed: 7, top_p: 0.5, stream: false, model: 'hijack' },
      },
    });
    expect(result.message.content).toBe('done');
    expect(result.model).toBe('requested-model');

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].model).toBe('requested-model');
    expect(server.requests[0].body).toEqual({
      model: 'requested-model',
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Order ORD-9?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'query_order', arguments: '{"order_id":"ORD-9"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'shipped' },
      ],
      tools: tools.map((tool) => ({ type: 'function', function: tool })),
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.2,
      max_tokens: 321,
      seed: 7,
      top_p: 0.5,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('omits tools, tool_choice and parallel_tool_calls without tools; falls back to settings.name, then the default', async () => {
    server = await startScriptedModelServer({ script: ['a'] });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'default-model' });
    const base = { messages: conversationAtTurn(0), tools: [] };
    await model.complete({ ...base, settings: { name: 'settings-model', toolChoice: 'auto', parallelToolCalls: true } });
    await model.complete({ ...base, settings: {} });
    expect(server.requests[0].body).toEqual({
      model: 'settings-model',
      messages: [{ role: 'user', content: 'Where is my order ORD-1 and how is the weather in Paris?' }],
      stream: false,
    });
    expect(server.requests[1].model).toBe('default-model');
  });

  it('throws a retryable Model.Connection failure when the connection drops mid-stream', async () => {
    server = await startScriptedModelServer({
      chunkSize: 2,
      script: [{ text: 'a long answer that never arrives', faults: [{ dropConnection: true, afterChunks: 3 }] }],
    });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-drop' });
    const texts: string[] = [];
    const failure = await failureOf(
      model.complete(
        { messages: conversationAtTurn(0), tools: [], settings: { stream: true } },
        { onText: (text) => texts.push(text) },
      ),
    );
    expect(failure.type).toBe(FailureTypes.modelConnection);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('gpt-drop');
    expect(texts).toEqual(['a ', 'a lo']);

    const retried = await model.complete({ messages: conversationAtTurn(0), tools: [], settings: { stream: true } });
    expect(retried.message.content).toBe('a long answer that never arrives');
  });

  it('throws a retryable Model.Connection failure when the connection drops before the response', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'x', faults: [{ dropConnection: true, afterChunks: 0 }] }] });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-drop' });
    const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }));
    expect(failure.type).toBe(FailureTypes.modelConnection);
    expect(failure.nonRetryable).toBe(false);
  });

  it('throws a retryable Model.Connection failure when a stream ends cleanly before the finish reason', async () => {
    server = await startScriptedModelServer({
      chunkSize: 4,
      script: [
        {
          toolCalls: [{ name: 'query_order', arguments: { order_id: 'ORD-123456' } }],
          faults: [{ dropConnection: true, graceful: true, afterChunks: 4 }],
        },
      ],
    });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-cut' });
    const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools, settings: { stream: true } }));
    expect(failure.type).toBe(FailureTypes.modelConnection);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe('The stream from model gpt-cut ended before the model finished.');
  });

  it('throws a retryable Model.InvalidResponse failure for a cut-off JSON body', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'x', faults: [{ dropConnection: true, graceful: true }] }] });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-cut' });
    const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }));
    expect(failure.type).toBe(FailureTypes.modelInvalidResponse);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('gpt-cut');
  });

  it('throws a retryable Model.Connection failure when nothing listens', async () => {
    server = await startScriptedModelServer({ script: ['x'] });
    const baseURL = server.baseURL;
    await server.close();
    const model = createChatModel({ baseURL, apiKey: 'k', defaultModel: 'gpt-gone' });
    const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }));
    expect(failure.type).toBe(FailureTypes.modelConnection);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('gpt-gone');
  });

  it.each([false, true])('throws a retryable Model.Timeout failure when a reply stalls past timeoutMs (stream: %s)', async (stream) => {
    server = await startScriptedModelServer({ script: [{ text: 'slow', faults: [{ stallMs: 5000 }] }] });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-slow', timeoutMs: 300 });
    const started = Date.now();
    const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: { stream } }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(failure.type).toBe(FailureTypes.modelTimeout);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('gpt-slow');
  });

  it('throws a CancelledFailure when the caller aborts', async () => {
    server = await startScriptedModelServer({ script: [{ text: 'slow', faults: [{ stallMs: 5000 }] }] });
    const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-slow' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(
      model.complete({ messages: conversationAtTurn(0), tools: [], settings: { stream: true } }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(CancelledFailure);
  });

  describe('classifies HTTP failures', () => {
    const cases: Array<{ fault: StatusFault; type: string; retryable: boolean; delay?: number }> = [
      { fault: { status: 400 }, type: FailureTypes.modelBadRequest, retryable: false },
      { fault: { status: 422 }, type: FailureTypes.modelBadRequest, retryable: false },
      { fault: { status: 401 }, type: FailureTypes.modelAuth, retryable: false },
      { fault: { status: 403 }, type: FailureTypes.modelAuth, retryable: false },
      { fault: { status: 404 }, type: FailureTypes.modelNotFound, retryable: false },
      { fault: { status: 408 }, type: FailureTypes.modelTimeout, retryable: true },
      { fault: { status: 409 }, type: FailureTypes.modelServer, retryable: true },
      {
        fault: { status: 429, headers: { 'retry-after': '2' } },
        type: FailureTypes.modelRateLimit,
        retryable: true,
        delay: 2000,
      },
      {
        fault: { status: 429, headers: { 'retry-after-ms': '1500' } },
        type: FailureTypes.modelRateLimit,
        retryable: true,
        delay: 1500,
      },
      { fault: { status: 500 }, type: FailureTypes.modelServer, retryable: true },
      { fault: { status: 502 }, type: FailureTypes.modelServer, retryable: true },
      { fault: { status: 503, headers: { 'retry-after': '3' } }, type: FailureTypes.modelServer, retryable: true, delay: 3000 },
    ];

    it.each(cases.map((c) => [c.fault.status, c.type, c.retryable, c] as const))(
      '%d → %s (retryable: %s)',
      async (status, type, retryable, { fault, delay }) => {
        server = await startScriptedModelServer({ script: [{ text: 'unused', faults: [fault] }] });
        const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-classify' });
        const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }));
        expect(failure.type).toBe(type);
        expect(failure.nonRetryable).toBe(!retryable);
        expect(failure.nextRetryDelay).toBe(delay);
        expect(failure.message).toContain('gpt-classify');
        expect(failure.message).toContain(`HTTP ${status}`);
        expect(failure.details).toEqual([expect.objectContaining({ model: 'gpt-classify', status })]);
      },
    );

    it('names the model, the status and the provider message for a 400', async () => {
      server = await startScriptedModelServer({
        script: [
          {
            text: 'unused',
            faults: [
              {
                status: 400,
                body: {
                  error: {
                    message: "Invalid 'messages[2]': missing tool_call_id.",
                    type: 'invalid_request_error',
                    param: 'messages',
                    code: 'invalid_value',
                  },
                },
              },
            ],
          },
        ],
      });
      const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-strict' });
      const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: { stream: true } }));
      expect(failure.message).toBe("Model gpt-strict failed with HTTP 400: Invalid 'messages[2]': missing tool_call_id.");
      expect(failure.type).toBe(FailureTypes.modelBadRequest);
      expect(failure.nonRetryable).toBe(true);
      expect(failure.details).toEqual([
        { model: 'gpt-strict', status: 400, code: 'invalid_value', errorType: 'invalid_request_error', param: 'messages' },
      ]);
    });

    it('does not retry a 429 that reports an exhausted quota', async () => {
      server = await startScriptedModelServer({
        script: [
          {
            text: 'unused',
            faults: [{ status: 429, body: { error: { message: 'You exceeded your current quota.', code: 'insufficient_quota' } } }],
          },
        ],
      });
      const model = createChatModel({ baseURL: server.baseURL, apiKey: 'k', defaultModel: 'gpt-broke' });
      const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }));
      expect(failure.type).toBe(FailureTypes.modelRateLimit);
      expect(failure.nonRetryable).toBe(true);
    });

    it('never puts the API key into the failure, even when the provider echoes it', async () => {
      const apiKey = 'sk-proj-SECRETabc123def456';
      server = await startScriptedModelServer({ script: ['unused'], apiKey: 'the-right-key' });
      const model = createChatModel({ baseURL: server.baseURL, apiKey, defaultModel: 'gpt-auth' });
      const failure = await failureOf(model.complete({ messages: conversationAtTurn(0), tools: [], settings: {} }));
      expect(failure.type).toBe(FailureTypes.modelAuth);
      expect(failure.nonRetryable).toBe(true);
      expect(failure.message).toBe('Model gpt-auth failed with HTTP 401: Incorrect API key provided: [redacted].');
      const { message, details, stack, cause } = failure;
      const everything = JSON.stringify({ message, details, stack, cause });
      expect(everything).not.toContain('SECRET');
      expect(everything.toLowerCase()).not.toContain('authorization');
    });
  });
});
