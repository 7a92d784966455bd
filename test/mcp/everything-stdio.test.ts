import { createMcpManager } from '../../src/mcp/mcp-manager';
import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpManager } from '../../src/mcp/mcp-types';
import type { RegisteredTool } from '../../src/toolkit/registered-tool';
import { isAlive, mcpChildProcesses, waitFor } from './helpers/processes';
import { everythingStdio } from './helpers/servers';
import { createTestLog } from './helpers/test-log';
import { fakeToolContext } from './helpers/tool-context';

describe('server-everything over stdio', () => {
  const servers = { everything: everythingStdio() };
  let manager: McpManager;
  let tools: Map<string, RegisteredTool>;
  let pid: number;

  beforeAll(async () => {
    manager = createMcpManager({ servers, log: createTestLog().log, clientName: 'durable-agent-test' });
    await manager.start();
    tools = new Map(mcpRegisteredTools(manager, { takenNames: () => false, servers }).map((tool) => [tool.spec.name, tool]));
    pid = manager.serverStatus()[0]!.pid!;
  });

  afterAll(async () => {
    await manager.close();
    expect(isAlive(pid)).toBe(false);
    expect(mcpChildProcesses()).toEqual([]);
  });

  it('connects and lists the real tools with their schemas and annotations', () => {
    expect(manager.serverStatus()).toEqual([
      expect.objectContaining({ server: 'everything', transport: 'stdio', state: 'connected', failedAttempts: 0 }),
    ]);
    expect(isAlive(pid)).toBe(true);
    const echo = manager.tools().find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({
      server: 'everything',
      description: 'Echoes back the input string',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      annotations: { readOnlyHint: true },
    });
    expect([...tools.keys()]).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
  });

  it('leaves out tools that can only run as MCP tasks', () => {
    expect(manager.tools().some((tool) => tool.name === 'simulate-research-query' && tool.taskSupport === 'required')).toBe(true);
    expect(tools.has('simulate-research-query')).toBe(false);
  });

  it('registers an MCP tool as the workflow expects to see it', () => {
    expect(tools.get('get-sum')!.spec).toEqual({
      name: 'get-sum',
      description: 'Returns the sum of two numbers',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      readOnly: true,
      concurrencySafe: true,
      external: false,
      source: { kind: 'mcp', server: 'everything', toolName: 'get-sum' },
      permission: 'allow',
      timeout: '150s',
    });
  });

  it('calls echo and get-sum and returns the real answers as text blocks', async () => {
    await expect(tools.get('echo')!.execute!({ message: 'hello durable' }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'Echo: hello durable' }],
    });
    await expect(tools.get('get-sum')!.execute!({ a: 19, b: 23 }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'The sum of 19 and 23 is 42.' }],
    });
  });

  it('validates input against the server schema before calling', () => {
    const outcome = tools.get('get-sum')!.validate({ a: 'x' });
    expect(outcome).toEqual({
      ok: false,
      message: [
        "Error: Parameter validation failed for tool 'get-sum':",
        '- /b: is required',
        '- /a: must be number',
        'Please correct the parameters and try again.',
      ].join('\n'),
    });
    expect(tools.get('get-sum')!.validate({ a: 1, b: 2 })).toEqual({ ok: true, value: { a: 1, b: 2 } });
  });

  it('returns images as data URLs and embedded resources as resource blocks', async () => {
    const image = await tools.get('get-tiny-image')!.execute!({}, fakeToolContext());
    expect(image).toEqual({
      blocks: [
        { type: 'text', text: "Here's the image you requested:" },
        { type: 'image', url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/), mimeType: 'image/png' },
        { type: 'text', text: 'The image above is the MCP logo.' },
      ],
    });
    const resource = await tools.get('get-resource-reference')!.execute!({ resourceType: 'Text', resourceId: 1 }, fakeToolContext());
    expect(resource).toEqual({
      blocks: expect.arrayContaining([
        { type: 'resource', uri: 'demo://resource/dynamic/text/1', mimeType: 'text/plain', text: expect.stringContaining('Resource 1') },
      ]),
    });
  });

  it('turns progress notifications into heartbeats', async () => {
    const ctx = fakeToolContext();
    const result = await tools.get('trigger-long-running-operation')!.execute!({ duration: 0.4, steps: 4 }, ctx);
    expect(result).toEqual({ blocks: [{ type: 'text', text: expect.stringContaining('Long running operation completed') }] });
    expect(ctx.heartbeats.length).toBeGreaterThanOrEqual(3);
    expect(ctx.heartbeats[0]).toEqual({ progress: 1, total: 4 });
  });

  it("passes the server's error result for an unknown tool to the model", async () => {
    const result = await mcpRegisteredTools(
      { tools: () => [{ server: 'everything', name: 'no-such-tool', inputSchema: { type: 'object' } }], callTool: manager.callTool },
      { takenNames: () => false, servers },
    )[0]!.execute!({}, fakeToolContext());
    expect(result).toEqual({ blocks: [{ type: 'text', text: 'MCP error -32602: Tool no-such-tool not found' }], isError: true });
  });

  it('shares one connection (one child process) between concurrent calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => manager.callTool('everything', 'get-sum', { a: i, b: 1 })),
    );
    expect(results.map((result) => (result.content[0] as { text: string }).text)).toEqual(
      Array.from({ length: 8 }, (_, i) => `The sum of ${i} and 1 is ${i + 1}.`),
    );
    expect(mcpChildProcesses().map((child) => child.pid)).toEqual([pid]);
    expect(await waitFor(() => isAlive(pid), 10)).toBe(true);
  });
});
