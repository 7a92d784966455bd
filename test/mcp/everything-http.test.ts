import { ApplicationFailure } from '@temporalio/common';
import { createMcpManager } from '../../src/mcp/mcp-manager';
import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpManager } from '../../src/mcp/mcp-types';
import type { McpServersConfig } from '../../src/mcp/tools-config-types';
import type { RegisteredTool } from '../../src/toolkit/registered-tool';
import { freePort, startEverythingHttp, type HttpServerProcess } from './helpers/everything-http';
import { isAlive, mcpChildProcesses } from './helpers/processes';
import { createTestLog } from './helpers/test-log';
import { fakeToolContext } from './helpers/tool-context';

function toolsByName(manager: McpManager, servers: McpServersConfig): Map<string, RegisteredTool> {
  return new Map(mcpRegisteredTools(manager, { takenNames: () => false, servers }).map((tool) => [tool.spec.name, tool]));
}

describe('server-everything over streamable HTTP', () => {
  let port: number;
  let server: HttpServerProcess;
  let servers: McpServersConfig;
  let manager: McpManager;
  const serverPids: number[] = [];

  beforeAll(async () => {
    port = await freePort();
    server = await startEverythingHttp(port);
    serverPids.push(server.pid);
    servers = { remote: { transport: 'http', url: server.url, headers: { 'X-Test': 'yes' }, prefix: false } };
    manager = createMcpManager({ servers, log: createTestLog().log, reconnect: { initialDelayMs: 100, maxDelayMs: 500 } });
    await manager.start();
  });

  afterAll(async () => {
    await manager.close();
    await server.stop();
    expect(serverPids.filter(isAlive)).toEqual([]);
    expect(mcpChildProcesses()).toEqual([]);
  });

  it('connects, lists tools and calls echo and get-sum', async () => {
    expect(manager.serverStatus()).toEqual([
      expect.objectContaining({ server: 'remote', transport: 'http', state: 'connected', toolCount: expect.any(Number) }),
    ]);
    const tools = toolsByName(manager, servers);
    expect([...tools.keys()]).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    await expect(tools.get('echo')!.execute!({ message: 'over http' }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'Echo: over http' }],
    });
    await expect(tools.get('get-sum')!.execute!({ a: 2.5, b: 4 }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'The sum of 2.5 and 4 is 6.5.' }],
    });
  });

  it('streams progress over HTTP', async () => {
    const ctx = fakeToolContext();
    await toolsByName(manager, servers).get('trigger-long-running-operation')!.execute!({ duration: 0.3, steps: 3 }, ctx);
    expect(ctx.heartbeats[0]).toEqual({ progress: 1, total: 3 });
  });

  it('when the server goes away the call fails retryably, and after it returns the next call reconnects', async () => {
    const echo = toolsByName(manager, servers).get('echo')!;
    await server.stop();

    const error = await echo.execute!({ message: 'anyone?' }, fakeToolContext()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).type).toBe('Tool.Retryable');
    expect(manager.serverStatus()[0]!.state).not.toBe('connected');

    server = await startEverythingHttp(port);
    serverPids.push(server.pid);
    await expect(echo.execute!({ message: 'back again' }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'Echo: back again' }],
    });
    expect(manager.serverStatus()[0]!.state).toBe('connected');
  });
});

describe('server-everything over the older HTTP+SSE transport', () => {
  it('connects and calls get-sum', async () => {
    const server = await startEverythingHttp(await freePort(), 'sse');
    const servers: McpServersConfig = { legacy: { transport: 'sse', url: server.url, headers: {}, prefix: false } };
    const manager = createMcpManager({ servers, log: createTestLog().log });
    try {
      await manager.start();
      expect(manager.serverStatus()[0]).toMatchObject({ transport: 'sse', state: 'connected' });
      await expect(manager.callTool('legacy', 'get-sum', { a: 40, b: 2 })).resolves.toEqual({
        content: [{ type: 'text', text: 'The sum of 40 and 2 is 42.' }],
      });
    } finally {
      await manager.close();
      await server.stop();
    }
    expect(isAlive(server.pid)).toBe(false);
  });
});
