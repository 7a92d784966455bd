import { ApplicationFailure } from '@temporalio/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServerUnavailableError } from '../../src/mcp/mcp-errors';
import { createMcpManager } from '../../src/mcp/mcp-manager';
import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpManager } from '../../src/mcp/mcp-types';
import type { McpServersConfig } from '../../src/mcp/tools-config-types';
import type { RegisteredTool } from '../../src/toolkit/registered-tool';
import { isAlive, mcpChildProcesses, waitFor } from './helpers/processes';
import { everythingStdio, faultServer } from './helpers/servers';
import { createTestLog } from './helpers/test-log';
import { fakeToolContext } from './helpers/tool-context';
import { failureOf } from './helpers/failure-of';

const fastReconnect = { initialDelayMs: 50, maxDelayMs: 200 };


function toolsByName(manager: McpManager, servers: McpServersConfig): Map<string, RegisteredTool> {
  return new Map(mcpRegisteredTools(manager, { takenNames: () => false, servers }).map((tool) => [tool.spec.name, tool]));
}

describe('fault server', () => {
  let dir: string;
  const managers: McpManager[] = [];
  const seenPids = new Set<number>();

  function startManager(
    servers: McpServersConfig,
    options: { initTimeoutMs?: number; reconnect?: { initialDelayMs: number; maxDelayMs: number } } = {},
  ) {
    const { log, entries } = createTestLog();
    const manager = createMcpManager({ servers, log, clientName: 'fault-test', reconnect: fastReconnect, ...options });
    managers.push(manager);
    const remember = () => manager.serverStatus().forEach((status) => status.pid && seenPids.add(status.pid));
    return { manager, entries, remember };
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fault-server-'));
  });

  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
    expect([...seenPids].filter(isAlive)).toEqual([]);
    expect(mcpChildProcesses()).toEqual([]);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a crash mid-call is a retryable failure; the connection comes back and the retry succeeds', async () => {
    const servers = { fault: faultServer({ FAULT_SERVER_CRASH_MARKER: join(dir, 'crashed') }) };
    const { manager, entries, remember } = startManager(servers);
    await manager.start();
    remember();
    const firstPid = manager.serverStatus()[0]!.pid!;
    const crashOnce = toolsByName(manager, servers).get('crash_once')!;

    const failure = await failureOf(crashOnce.execute!({}, fakeToolContext()));
    expect(failure.type).toBe('Tool.Retryable');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe("MCP server 'fault' lost its connection during a call to 'crash_once': disconnected: connection closed");
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'warn', meta: expect.objectContaining({ stderr: 'fault-server: crashing on purpose' }) }),
    );

    const retried = await crashOnce.execute!({}, fakeToolContext());
    remember();
    const secondPid = manager.serverStatus()[0]!.pid!;
    expect(retried).toEqual({ blocks: [{ type: 'text', text: `survived (pid ${secondPid})` }] });
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);
    expect(manager.serverStatus()[0]).toMatchObject({ state: 'connected', failedAttempts: 0 });
  });

  it('a call that never answers becomes a timeout result, and the connection stays usable', async () => {
    const servers = { fault: faultServer({}, { timeoutMs: 300 }) };
    const { manager, remember } = startManager(servers);
    await manager.start();
    remember();
    const tools = toolsByName(manager, servers);
    const started = Date.now();
    await expect(tools.get('hang')!.execute!({}, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: "Error: the MCP call to 'hang' timed out after 300 ms." }],
      isError: true,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(tools.get('echo')!.execute!({ message: 'still here' }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: '[fault-server] still here' }],
    });
  });

  it('cancelling the run cancels the call at once', async () => {
    const servers = { fault: faultServer() };
    const { manager, remember } = startManager(servers);
    await manager.start();
    remember();
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    await expect(toolsByName(manager, servers).get('hang')!.execute!({}, fakeToolContext({ signal: controller.signal }))).rejects.toBe(
      reason,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(manager.serverStatus()[0]!.state).toBe('connected');
  });

  it('a server that fails to start: start() resolves, status explains with stderr, other servers work', async () => {
    const servers = { broken: faultServer({ FAULT_SERVER_MODE: 'fail-to-start' }), everything: everythingStdio() };
    const { manager, entries, remember } = startManager(servers, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    await expect(manager.start()).resolves.toBeUndefined();
    remember();

    const broken = manager.serverStatus().find((status) => status.server === 'broken')!;
    expect(broken).toMatchObject({
      state: 'failed',
      toolCount: 0,
      error: 'failed to start: the server process exited during initialization',
      stderr: 'fault-server: cannot open database /nonexistent/db.sqlite: permission denied',
    });
    expect(broken.failedAttempts).toBe(1);
    expect(Date.parse(broken.nextRetryAt!) - Date.now()).toBeGreaterThan(30_000);
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^MCP server 'broken' failed to start: the server process exited during initialization; retrying in \d+ ms$/),
        meta: expect.objectContaining({ stderr: expect.stringContaining('permission denied') }),
      }),
    );

    const tools = toolsByName(manager, servers);
    expect([...tools.values()].every((tool) => tool.spec.source.kind === 'mcp' && tool.spec.source.server === 'everything')).toBe(true);
    await expect(tools.get('echo')!.execute!({ message: 'ok' }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'Echo: ok' }],
    });

    const error = await manager.callTool('broken', 'echo', { message: 'x' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpServerUnavailableError);
    expect((error as Error).message).toBe(
      "MCP server 'broken' is not connected on this worker (failed to start: the server process exited during initialization; " +
        'stderr: fault-server: cannot open database /nonexistent/db.sqlite: permission denied)',
    );
  });

  it('a tool whose server cannot be reached on this worker fails with retryable Tool.Unavailable', async () => {
    const gate = join(dir, 'gate-closing');
    writeFileSync(gate, 'open');
    const servers = { flaky: faultServer({ FAULT_SERVER_START_GATE: gate, FAULT_SERVER_CRASH_MARKER: join(dir, 'flaky-crashed') }) };
    const { manager, remember } = startManager(servers);
    await manager.start();
    remember();
    const tools = toolsByName(manager, servers);
    rmSync(gate);
    expect((await failureOf(tools.get('crash_once')!.execute!({}, fakeToolContext()))).type).toBe('Tool.Retryable');
    const failure = await failureOf(tools.get('echo')!.execute!({ message: 'x' }, fakeToolContext()));
    expect(failure.type).toBe('Tool.Unavailable');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(/^MCP server 'flaky' is not connected on this worker \(failed to start: .*\); another worker may run the call\.$/s);
  });

  it('a command that does not exist is a failed start, not an exception', async () => {
    const servers: McpServersConfig = {
      missing: { transport: 'stdio', command: join(dir, 'no-such-server'), args: [], env: {}, prefix: false },
    };
    const { manager } = startManager(servers, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    await expect(manager.start()).resolves.toBeUndefined();
    expect(manager.serverStatus()[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/^failed to start: spawn .*ENOENT/) });
  });

  it('a failed server is retried in the background and its tools appear once it works', async () => {
    const gate = join(dir, 'gate');
    const servers = { late: faultServer({ FAULT_SERVER_START_GATE: gate }) };
    const { manager, remember } = startManager(servers);
    await manager.start();
    expect(manager.serverStatus()[0]!.state).toBe('failed');
    expect(manager.tools()).toEqual([]);
    expect(await waitFor(() => manager.serverStatus()[0]!.failedAttempts >= 3, 10_000)).toBe(true);
    expect(manager.tools()).toEqual([]);
    writeFileSync(gate, 'open');
    expect(await waitFor(() => manager.serverStatus()[0]!.state === 'connected', 5000)).toBe(true);
    remember();
    expect(manager.tools().map((tool) => tool.name)).toContain('echo');
    await expect(manager.callTool('late', 'echo', { message: 'finally' })).resolves.toEqual({
      content: [{ type: 'text', text: '[fault-server] finally' }],
    });
  });

  it('a server that never answers initialize times out, and its child is stopped', async () => {
    const servers = { silent: faultServer({ FAULT_SERVER_MODE: 'silent' }) };
    const { manager } = startManager(servers, { initTimeoutMs: 2000 });
    await manager.start();
    const status = manager.serverStatus()[0]!;
    expect(status).toMatchObject({
      state: 'failed',
      error: 'failed to start: no answer within 2000 ms while connecting',
      stderr: 'fault-server: started in silent mode',
    });
    await manager.close();
    expect(mcpChildProcesses()).toEqual([]);
  });

  it('passes the runtime context and call ids as _meta, and error results through', async () => {
    const servers = { fault: faultServer() };
    const { manager, remember } = startManager(servers);
    await manager.start();
    remember();
    const tools = toolsByName(manager, servers);
    const meta = await tools.get('show_meta')!.execute!({}, fakeToolContext());
    const text = (meta as { blocks: Array<{ text: string }> }).blocks[0]!.text;
    expect(JSON.parse(text)).toMatchObject({
      userId: 'user-7',
      sessionId: 'session-3',
      agent: 'test-agent',
      workflowId: 'wf-1',
      runId: 'run-1',
      callId: 'call-1',
      idempotencyKey: 'wf-1:call-1',
    });
    await expect(tools.get('fail')!.execute!({ reason: 'disk full' }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'failed: disk full' }],
      isError: true,
    });
    const ctx = fakeToolContext();
    await expect(tools.get('slow')!.execute!({ steps: 4 }, ctx)).resolves.toEqual({ blocks: [{ type: 'text', text: 'done after 4 steps' }] });
    expect(ctx.heartbeats.slice(0, 2)).toEqual([
      { progress: 1, total: 4, message: 'step 1' },
      { progress: 2, total: 4, message: 'step 2' },
    ]);
  });

  it('close() stops every child and refuses further calls', async () => {
    const servers = { a: faultServer(), b: faultServer() };
    const { manager } = startManager(servers);
    await manager.start();
    const pids = manager.serverStatus().map((status) => status.pid!);
    expect(pids.every(isAlive)).toBe(true);
    await manager.close();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(manager.serverStatus().map((status) => status.state)).toEqual(['closed', 'closed']);
    await expect(manager.callTool('a', 'echo', { message: 'x' })).rejects.toThrow(
      "MCP server 'a' is not connected on this worker (the MCP manager is closed)",
    );
  });
});
