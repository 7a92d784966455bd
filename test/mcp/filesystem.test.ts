import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpManager } from '../../src/mcp/mcp-manager';
import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpManager } from '../../src/mcp/mcp-types';
import type { McpServersConfig } from '../../src/mcp/tools-config-types';
import type { RegisteredTool } from '../../src/toolkit/registered-tool';
import { isAlive, mcpChildProcesses } from './helpers/processes';
import { filesystemStdio } from './helpers/servers';
import { createTestLog } from './helpers/test-log';
import { fakeToolContext } from './helpers/tool-context';

describe('server-filesystem over stdio on a temp folder', () => {
  let dir: string;
  let servers: McpServersConfig;
  let manager: McpManager;
  let tools: Map<string, RegisteredTool>;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-fs-')));
    writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    servers = { fs: filesystemStdio(dir) };
    manager = createMcpManager({ servers, log: createTestLog().log });
    await manager.start();
    tools = new Map(mcpRegisteredTools(manager, { takenNames: () => false, servers }).map((tool) => [tool.spec.name, tool]));
  });

  afterAll(async () => {
    const pid = manager.serverStatus()[0]!.pid;
    await manager.close();
    rmSync(dir, { recursive: true, force: true });
    expect(pid !== undefined && isAlive(pid)).toBe(false);
    expect(mcpChildProcesses()).toEqual([]);
  });

  it('lists the filesystem tools', () => {
    expect(manager.serverStatus()[0]).toMatchObject({ server: 'fs', state: 'connected' });
    expect([...tools.keys()]).toEqual(expect.arrayContaining(['read_file', 'read_text_file', 'write_file', 'list_directory']));
  });

  it('reads a real file', async () => {
    await expect(tools.get('read_text_file')!.execute!({ path: join(dir, 'notes.txt') }, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: 'first line\nsecond line\n' }],
    });
    const viaReadFile = await tools.get('read_file')!.execute!({ path: join(dir, 'notes.txt') }, fakeToolContext());
    expect(viaReadFile).toEqual({ blocks: [{ type: 'text', text: 'first line\nsecond line\n' }] });
  });

  it('writes a real file', async () => {
    const result = await tools.get('write_file')!.execute!({ path: join(dir, 'out.txt'), content: 'written by MCP' }, fakeToolContext());
    expect(result).toEqual({ blocks: [{ type: 'text', text: `Successfully wrote to ${join(dir, 'out.txt')}` }] });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('written by MCP');
  });

  it('a path outside the allowed folder is an error result for the model', async () => {
    const result = await tools.get('read_text_file')!.execute!({ path: '/etc/hostname' }, fakeToolContext());
    expect(result).toMatchObject({ isError: true, blocks: [{ type: 'text', text: expect.stringContaining('Access denied') }] });
  });

  it('read tools are allowed, write tools ask, and the path field drives rule patterns', () => {
    expect(tools.get('read_text_file')!.spec).toMatchObject({ readOnly: true, permission: 'allow' });
    expect(tools.get('write_file')!.spec).toMatchObject({ readOnly: false, permission: 'ask' });
    expect(tools.get('move_file')!.spec.permission).toBe('ask');
    expect(tools.get('read_text_file')!.patternField).toBe('path');
  });
});
