import { startMcpServerKit, type McpServerKit, LISTED_TOOLS } from '../helpers/mcp-server-kit';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser-page', version: '1.0.0' } },
});

describe('durable-agent mcp --http: requests from browser pages of other origins are refused (403)', () => {
  let kit: McpServerKit;

  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  async function post(url: string, headers: Record<string, string>): Promise<{ status: number; message?: string }> {
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: initialize });
    if (response.status === 200) {
      await response.body?.cancel();
      return { status: 200 };
    }
    return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
  }

  test('with a token and --allow-origin: a foreign origin is refused even with the token; loopback and allowed origins pass', async () => {
    const { url } = await kit.httpServer(['--token', 'sesame', '--allow-origin', 'https://app.example.com', '--allow-origin', 'chrome-extension://abcdefgh']);
    const token = { Authorization: 'Bearer sesame' };
    const refused = await post(url, { ...token, Origin: 'http://evil.example.com' });
    expect(refused).toEqual({
      status: 403,
      message:
        "Forbidden: requests from the origin 'http://evil.example.com' are not allowed; only loopback origins and those allowed are. " +
        'Allow it with --allow-origin http://evil.example.com or AGENT_MCP_ALLOWED_ORIGINS=http://evil.example.com.',
    });
    expect((await post(url, { Origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await post(url, { ...token, Origin: 'null' })).status).toBe(403);
    expect((await post(url, { ...token, Origin: 'http://localhost.evil.example.com' })).status).toBe(403);
    expect((await post(url, { ...token, Origin: 'https://app.example.com' })).status).toBe(200);
    expect((await post(url, { ...token, Origin: 'chrome-extension://abcdefgh' })).status).toBe(200);
    expect((await post(url, { ...token, Origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post(url, { ...token, Origin: 'http://127.0.0.1:3000' })).status).toBe(200);
    // The allowed origin still needs the token; a request without Origin (no browser) needs only the token.
    expect((await post(url, { Origin: 'https://app.example.com' })).status).toBe(401);
    expect((await post(url, token)).status).toBe(200);
  });

  test('without a token, AGENT_MCP_ALLOWED_ORIGINS (comma-separated) is the allow-list; a foreign origin is refused', async () => {
    const { url } = await kit.httpServer([], { AGENT_MCP_ALLOWED_ORIGINS: 'https://a.example.com, https://B.example.com:8443' });
    expect((await post(url, { Origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await post(url, { Origin: 'https://a.example.com:444' })).status).toBe(403);
    expect((await post(url, { Origin: 'https://b.example.com:8443' })).status).toBe(200);
    expect((await post(url, { Origin: 'https://a.example.com' })).status).toBe(200);
    expect((await post(url, { Origin: 'http://[::1]:8080' })).status).toBe(200);
    const client = await kit.overHttp(url);
    expect((await client.listTools()).tools.length).toBe(LISTED_TOOLS);
  });

  test('an allow-list entry that is not an origin is a usage error', async () => {
    const { code, stderr } = await kit.exitOf(['--http', '0', '--allow-origin', 'https://app.example.com/path']);
    expect(code).toBe(2);
    expect(stderr).toContain("--allow-origin: 'https://app.example.com/path' is not an origin");
  });
});
