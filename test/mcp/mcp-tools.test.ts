import { z } from 'zod';
import { createMcpManager } from '../../src/mcp/mcp-manager';
import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpManager } from '../../src/mcp/mcp-types';
import type { McpServersConfig } from '../../src/mcp/tools-config-types';
import { defineTool } from '../../src/toolkit/define-tool';
import { registerCodeTool } from '../../src/toolkit/from-tool';
import { Toolkit } from '../../src/toolkit/toolkit';
import { mcpChildProcesses } from './helpers/processes';
import { everythingStdio, faultServer } from './helpers/servers';
import { createTestLog } from './helpers/test-log';
import { fakeToolContext } from './helpers/tool-context';

const LONG_NAME = 'a_tool_with_a_name_so_long_that_it_does_not_fit_into_an_openai_function_name';

describe('MCP tools in a toolkit', () => {
  const servers: McpServersConfig = {
    everything: everythingStdio(),
    fault: faultServer({}, { permission: 'allow', disableTools: ['hang', 'crash_*'] }),
    second: faultServer({ FAULT_SERVER_LABEL: 'second' }, { enableTools: ['echo', 'show_*', 'read_only_tool'] }),
    prefixed: faultServer({ FAULT_SERVER_LABEL: 'prefixed' }, { enableTools: ['slow', 'fail'], prefix: true }),
  };
  let manager: McpManager;
  let toolkit: Toolkit;

  beforeAll(async () => {
    manager = createMcpManager({ servers, log: createTestLog().log });
    await manager.start();
    toolkit = new Toolkit();
    toolkit.register(
      registerCodeTool(
        defineTool({
          name: 'get-sum',
          description: 'Our own sum.',
          input: z.object({ a: z.number(), b: z.number() }),
          execute: ({ a, b }) => `code says ${a + b}`,
        }),
      ),
    );
    for (const tool of mcpRegisteredTools(manager, { takenNames: (name) => toolkit.has(name), servers })) toolkit.register(tool);
  });

  afterAll(async () => {
    await manager.close();
    expect(mcpChildProcesses()).toEqual([]);
  });

  const run = async (name: string, input: Record<string, unknown>) => {
    const tool = toolkit.get(name);
    if (!tool) throw new Error(`no tool '${name}' in ${toolkit.names().join(', ')}`);
    return tool.execute!(input, fakeToolContext());
  };

  it('every server is connected', () => {
    expect(manager.serverStatus().map((status) => [status.server, status.state])).toEqual([
      ['everything', 'connected'],
      ['fault', 'connected'],
      ['second', 'connected'],
      ['prefixed', 'connected'],
    ]);
  });

  it('a code tool keeps its name; the clashing MCP tool is callable as <server>__<tool>', async () => {
    expect(toolkit.get('get-sum')!.spec.source).toEqual({ kind: 'code' });
    await expect(run('get-sum', { a: 1, b: 2 })).resolves.toBe('code says 3');
    expect(toolkit.get('everything__get-sum')!.spec.source).toEqual({ kind: 'mcp', server: 'everything', toolName: 'get-sum' });
    await expect(run('everything__get-sum', { a: 1, b: 2 })).resolves.toEqual({
      blocks: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }],
    });
  });

  it('the same tool name on several servers: each is callable under its server prefix', async () => {
    expect(toolkit.has('echo')).toBe(false);
    await expect(run('everything__echo', { message: 'x' })).resolves.toEqual({ blocks: [{ type: 'text', text: 'Echo: x' }] });
    await expect(run('fault__echo', { message: 'x' })).resolves.toEqual({ blocks: [{ type: 'text', text: '[fault-server] x' }] });
    await expect(run('second__echo', { message: 'x' })).resolves.toEqual({ blocks: [{ type: 'text', text: '[second] x' }] });
  });

  it('a tool name only one server has stays unprefixed', () => {
    expect(toolkit.get('get-tiny-image')!.spec.source).toEqual({ kind: 'mcp', server: 'everything', toolName: 'get-tiny-image' });
    expect(toolkit.get('destructive_tool')!.spec.source).toEqual({ kind: 'mcp', server: 'fault', toolName: 'destructive_tool' });
  });

  it('prefix: true always prefixes', async () => {
    expect(toolkit.names().filter((name) => name.startsWith('prefixed__')).sort()).toEqual(['prefixed__fail', 'prefixed__slow']);
    await expect(run('prefixed__slow', { steps: 1 })).resolves.toEqual({ blocks: [{ type: 'text', text: 'done after 1 steps' }] });
  });

  it('enableTools and disableTools choose what is offered', () => {
    const fromServer = (server: string) =>
      toolkit
        .specs()
        .filter((spec) => spec.source.kind === 'mcp' && spec.source.server === server)
        .map((spec) => (spec.source as { toolName: string }).toolName)
        .sort();
    expect(fromServer('second')).toEqual(['echo', 'read_only_tool', 'show_meta']);
    expect(fromServer('fault')).not.toEqual(expect.arrayContaining(['hang']));
    expect(fromServer('fault')).not.toContain('crash_once');
    expect(fromServer('fault')).toEqual(expect.arrayContaining(['echo', 'slow', 'fail', 'destructive_tool']));
  });

  it('names are made valid function names and still call the original tool', async () => {
    const names = toolkit.names();
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    await expect(run('dotted_tool_name', {})).resolves.toEqual({ blocks: [{ type: 'text', text: 'dotted' }] });
    const long = names.find((name) => name.startsWith(LONG_NAME.slice(0, 40)))!;
    expect(long).toHaveLength(64);
    expect(toolkit.get(long)!.spec.source).toEqual({ kind: 'mcp', server: 'fault', toolName: LONG_NAME });
    await expect(run(long, {})).resolves.toEqual({ blocks: [{ type: 'text', text: 'long' }] });
  });

  it('maps annotations to readOnly, concurrencySafe and permission', async () => {
    const summary = (name: string) => {
      const { spec } = toolkit.get(name)!;
      return { readOnly: spec.readOnly, concurrencySafe: spec.concurrencySafe, permission: spec.permission };
    };
    // fault has permission 'allow' as its default; second has none.
    expect(summary('fault__read_only_tool')).toEqual({ readOnly: true, concurrencySafe: true, permission: 'allow' });
    expect(summary('destructive_tool')).toEqual({ readOnly: false, concurrencySafe: false, permission: 'ask' });
    expect(summary('additive_tool')).toEqual({ readOnly: false, concurrencySafe: false, permission: 'allow' });
    expect(summary('fault__echo')).toEqual({ readOnly: false, concurrencySafe: false, permission: 'allow' });
    expect(summary('second__echo')).toEqual({ readOnly: false, concurrencySafe: false, permission: 'ask' });
    expect(summary('everything__echo')).toEqual({ readOnly: true, concurrencySafe: true, permission: 'allow' });

    const check = toolkit.get('second__echo')!.permission as (input: unknown, ctx: unknown) => unknown;
    await expect(Promise.resolve(check({ message: 'x' }, { runtime: {}, agent: 'a', mode: 'default' }))).resolves.toEqual({
      behavior: 'ask',
      reason: "MCP tool 'second__echo' requires explicit authorization before each call",
    });
  });
});
