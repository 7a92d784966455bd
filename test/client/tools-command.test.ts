import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliOutput } from '../../src/cli/cli-output';
import { runCli } from '../../src/cli/run-cli';
import { mcpChildProcesses } from '../mcp/helpers/processes';
import { FAULT_SERVER, FILESYSTEM_BIN } from '../mcp/helpers/servers';

const MODULE = join(__dirname, '..', 'fixtures', 'cli-agents.ts');

function captured(): CliOutput & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe('durable-agent tools', () => {
  let dir: string;
  let toolsConfig: string;

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'cli-tools-')));
    toolsConfig = join(dir, 'tools.json');
    writeFileSync(
      toolsConfig,
      JSON.stringify({
        mcpServers: {
          files: { command: FILESYSTEM_BIN, args: [dir], enableTools: ['read_file', 'write_file'] },
          broken: { command: process.execPath, args: [FAULT_SERVER], env: { FAULT_SERVER_MODE: 'fail-to-start' } },
        },
      }),
    );
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(mcpChildProcesses()).toEqual([]);
  });

  test('--json lists every tool with its source, group, read-only flag and permission default', async () => {
    const output = captured();
    const code = await runCli(['tools', '--module', MODULE, '--tools-config', toolsConfig, '--agent', 'helper', '--json'], output);
    expect(code).toBe(0);
    const listing = JSON.parse(output.stdout.join('\n'));
    expect(listing.agents).toHaveLength(1);
    const [helper] = listing.agents;
    expect(helper.agent).toBe('helper');
    const byName = Object.fromEntries(helper.tools.map((tool: { name: string }) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'destructive_tool',
      'echo',
      'fault__echo',
      'files__read_file',
      'read_file',
      'read_only_tool',
      'reset_equipped_tools',
      'write_file',
    ]);
    expect(byName.echo).toMatchObject({ source: { kind: 'code' }, groups: [], readOnly: true, permission: 'ask', reason: "echo requires approval (ask rule 'echo')" });
    expect(byName.read_file).toMatchObject({ source: { kind: 'builtin' }, groups: ['files'], readOnly: true, toolPermission: 'dynamic', permission: 'dynamic' });
    expect(byName.fault__echo).toMatchObject({ source: { kind: 'mcp', server: 'fault', tool: 'echo' }, readOnly: false, toolPermission: 'ask', permission: 'ask' });
    expect(byName.read_only_tool).toMatchObject({ readOnly: true, concurrencySafe: true, permission: 'allow' });
    expect(byName.destructive_tool).toMatchObject({ readOnly: false, permission: 'ask' });
    expect(byName.files__read_file).toMatchObject({ source: { kind: 'mcp', server: 'files', tool: 'read_file' }, readOnly: true, permission: 'allow' });
    expect(byName.write_file).toMatchObject({ source: { kind: 'mcp', server: 'files', tool: 'write_file' }, permission: 'ask' });
    expect(byName.reset_equipped_tools).toMatchObject({ source: { kind: 'builtin' }, permission: 'allow' });

    expect(listing.servers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ server: 'fault', state: 'connected' }),
        expect.objectContaining({ server: 'files', state: 'connected' }),
        expect.objectContaining({ server: 'broken', state: 'failed', error: expect.stringContaining('failed to start') }),
      ]),
    );
    expect(output.stderr).toEqual([expect.stringMatching(/^MCP server 'broken' is not connected \(failed to start: .*\); its tools are missing\.$/)]);
  });

  test('the text form shows one table per agent', async () => {
    const output = captured();
    expect(await runCli(['tools', '--module', MODULE, '--tools-config', join(dir, 'none.json')], output)).toBe(0);
    expect(output.stdout.join('\n')).toMatch(/^Agent helper \(permission mode default\): 6 tool\(s\)\n {2}NAME +SOURCE +GROUP +READ-ONLY +PERMISSION\n/);
    expect(output.stdout).toContain('Agent plain (permission mode default): 1 tool(s)');
    expect(output.stdout.find((line) => line.trim().startsWith('fault__echo'))).toMatch(/^ {2}fault__echo +MCP fault \(echo\) +- +no +ask$/);
    expect(output.stdout.find((line) => line.trim().startsWith('read_file'))).toMatch(/^ {2}read_file +built-in +files +yes +dynamic$/);
    expect(output.stdout.find((line) => line.trim().startsWith('read_only_tool'))).toMatch(/MCP fault +- +yes +allow$/);
  });

  test('an unknown agent is an error that names the known ones; --help says where the tools come from', async () => {
    const output = captured();
    expect(await runCli(['tools', '--module', MODULE, '--agent', 'nobody'], output)).toBe(1);
    expect(output.stderr).toEqual(["Error: Unknown agent 'nobody'. The module defines: helper, plain."]);

    const help = captured();
    expect(await runCli(['tools', '--help'], help)).toBe(0);
    expect(help.stdout.join('\n')).toMatch(/builds them the way a worker does/);
  });
});
