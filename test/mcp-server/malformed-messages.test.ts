import { startMcpServerKit, type McpServerKit, LISTED_TOOLS } from '../helpers/mcp-server-kit';

const BATCH_REFUSED = 'Invalid Request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send each message by itself';
const invalidBatch = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 17 }));

describe('durable-agent mcp: malformed JSON-RPC is answered with JSON-RPC errors, over stdio and HTTP', () => {
  let kit: McpServerKit;

  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  test('over stdio: -32700 for a line that is not JSON, -32600 with its id for an invalid request, one error per entry of a batch; the server goes on', async () => {
    const stdio = kit.rawStdio();
    stdio.send('{"jsonrpc":"2.0","id":"x1","method":17}');
    expect(await stdio.next()).toEqual({ jsonrpc: '2.0', id: 'x1', error: { code: -32600, message: 'Invalid Request: "method" must be a string' } });
    stdio.send('{"jsonrpc":"2.0","id":"x2",');
    expect(await stdio.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } });
    stdio.send('{"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]}');
    expect(await stdio.next()).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request: "params" must be an object' } });
    // Without "method" it is no request: its id may be one of the client's own, so the error has id null.
    stdio.send('{"jsonrpc":"2.0","id":4}');
    expect(await stdio.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('a response needs an "id" and either a "result"') } });
    stdio.send('{"jsonrpc":"2.0"}');
    expect(await stdio.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('no "method"') } });
    stdio.send(JSON.stringify(invalidBatch));
    expect(await stdio.next()).toEqual(invalidBatch.map((entry) => ({ jsonrpc: '2.0', id: entry.id, error: { code: -32600, message: BATCH_REFUSED } })));
    stdio.send('[]');
    expect(await stdio.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });
    stdio.send('{"jsonrpc":"2.0","id":"p","method":"ping"}');
    expect(await stdio.next()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  test('over HTTP: the same answers, with status 400', async () => {
    const { url } = await kit.httpServer();
    const post = async (body: string) => {
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await post('{"jsonrpc":"2.0","id":"x1","method":17}')).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', id: 'x1', error: { code: -32600, message: 'Invalid Request: "method" must be a string' } },
    });
    expect(await post('{"jsonrpc":')).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } } });
    expect(await post(JSON.stringify(invalidBatch))).toEqual({
      status: 400,
      body: invalidBatch.map((entry) => ({ jsonrpc: '2.0', id: entry.id, error: { code: -32600, message: BATCH_REFUSED } })),
    });
    // A well-formed client is not affected.
    const client = await kit.overHttp(url);
    expect((await client.listTools()).tools.length).toBe(LISTED_TOOLS);
  });
});
