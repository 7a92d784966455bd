import { createServer, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpManager } from '../../src/mcp/mcp-manager';
import { resolveMcpServers } from '../../src/mcp/tools-config';
import { mcpChildProcesses } from './helpers/processes';
import { EVERYTHING_BIN, FAULT_SERVER } from './helpers/servers';
import { createTestLog } from './helpers/test-log';

describe('configuration reaches the servers', () => {
  afterAll(() => {
    expect(mcpChildProcesses()).toEqual([]);
  });

  it('env and cwd, with ${VAR} substituted, reach a stdio server', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-cwd-')));
    const servers = resolveMcpServers(
      {
        everything: { command: EVERYTHING_BIN, args: ['stdio'], env: { MY_TOKEN: 'token-${TEST_SECRET}' } },
        fault: { command: process.execPath, args: [FAULT_SERVER], cwd: '${WORK_DIR}' },
      },
      { TEST_SECRET: 'abc123', WORK_DIR: dir },
    );
    const manager = createMcpManager({ servers, log: createTestLog().log });
    try {
      await manager.start();
      const env = await manager.callTool('everything', 'get-env', {});
      const printed = JSON.parse((env.content[0] as { text: string }).text) as Record<string, string>;
      expect(printed.MY_TOKEN).toBe('token-abc123');
      expect(printed.PATH).toBe(process.env.PATH);
      const cwd = await manager.callTool('fault', 'cwd', {});
      expect(cwd.content).toEqual([{ type: 'text', text: dir }]);
    } finally {
      await manager.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('headers, with ${VAR} substituted, are sent to an HTTP server; an HTTP error is a failed start', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const http = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(401, { 'content-type': 'text/plain' }).end('bad key');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as { port: number }).port;
    const servers = resolveMcpServers(
      { remote: { url: 'http://127.0.0.1:${PORT}/mcp', headers: { 'X-Api-Key': '${API_KEY}' } } },
      { PORT: String(port), API_KEY: 'k-42' },
    );
    const manager = createMcpManager({ servers, log: createTestLog().log, reconnect: { initialDelayMs: 60_000 } });
    try {
      await manager.start();
      expect(seen[0]!['x-api-key']).toBe('k-42');
      expect(manager.serverStatus()[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/^failed to start: .*bad key \(HTTP 401\)$/) });
    } finally {
      await manager.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
