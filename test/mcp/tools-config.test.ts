import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadToolsConfig, parseToolsConfig, resolveMcpServers } from '../../src/mcp/tools-config';
import { ToolsConfigError } from '../../src/mcp/tools-config-error';

function errorOf(fn: () => unknown): ToolsConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ToolsConfigError) return error;
    throw error;
  }
  throw new Error('expected a ToolsConfigError');
}

describe('loadToolsConfig', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tools-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('returns undefined when the file does not exist', async () => {
    await expect(loadToolsConfig(join(dir, 'missing.json'), {})).resolves.toBeUndefined();
  });

  it('reads a Claude Desktop style file with our extensions', async () => {
    const path = join(dir, 'tools.json');
    writeFileSync(
      path,
      JSON.stringify({
        allow: ['read_file'],
        deny: ['bash(rm:*)'],
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GH_TOKEN}' },
            enableTools: ['get_*'],
            timeout: '45s',
            permission: 'allow',
          },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${API_KEY}' }, prefix: true },
          legacy: { url: 'http://localhost:9000/sse', transport: 'sse', timeout: 5000 },
          off: { command: 'nothing', disabled: true },
        },
      }),
    );
    const config = await loadToolsConfig(path, { GH_TOKEN: 'ghp_123', API_KEY: 'k-9' });
    expect(config).toEqual({
      path,
      allow: ['read_file'],
      deny: ['bash(rm:*)'],
      mcpServers: {
        github: {
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_123' },
          enableTools: ['get_*'],
          timeoutMs: 45_000,
          permission: 'allow',
          prefix: false,
        },
        remote: {
          transport: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer k-9' },
          prefix: true,
        },
        legacy: { transport: 'sse', url: 'http://localhost:9000/sse', headers: {}, timeoutMs: 5000, prefix: false },
      },
    });
  });

  it('reports a JSON syntax error with the file, line and column', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n');
    const error = await loadToolsConfig(path, {}).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ToolsConfigError);
    expect((error as ToolsConfigError).message).toBe(
      `${path}:4:5: invalid JSON: Expected ',' or '}' after property value, found token "\\""`,
    );
    expect((error as ToolsConfigError).problems[0]!.location).toEqual({ line: 4, column: 5 });
  });
});

describe('parseToolsConfig', () => {
  it('substitutes ${VAR} in command, args, env, cwd, url and headers', () => {
    const env = { BIN: '/opt/bin', DIR: '/data', TOKEN: 's3cret', HOST: 'mcp.internal', USER_NAME: 'ann' };
    const config = parseToolsConfig(
      JSON.stringify({
        mcpServers: {
          local: {
            command: '${BIN}/server',
            args: ['--root', '${DIR}', 'user=${USER_NAME}'],
            env: { TOKEN: '${TOKEN}' },
            cwd: '${DIR}/work',
          },
          remote: { url: 'https://${HOST}/mcp', headers: { 'X-Token': '${TOKEN}' } },
        },
      }),
      { env },
    );
    expect(config.mcpServers.local).toMatchObject({
      command: '/opt/bin/server',
      args: ['--root', '/data', 'user=ann'],
      env: { TOKEN: 's3cret' },
      cwd: '/data/work',
    });
    expect(config.mcpServers.remote).toMatchObject({ url: 'https://mcp.internal/mcp', headers: { 'X-Token': 's3cret' } });
  });

  it('uses ${VAR:-default} when the variable is unset', () => {
    const config = parseToolsConfig('{"mcpServers":{"a":{"command":"x","args":["${PORT:-8080}"]}}}', { env: {} });
    expect(config.mcpServers.a).toMatchObject({ args: ['8080'] });
  });

  it('fails on an unset variable, naming it and where it is used, with its line', () => {
    const text = '{\n  "mcpServers": {\n    "github": {\n      "command": "gh-mcp",\n      "env": { "TOKEN": "${GITHUB_TOKEN}" }\n    }\n  }\n}';
    const error = errorOf(() => parseToolsConfig(text, { path: 'workspace/tools.json', env: {} }));
    expect(error.message).toBe(
      'workspace/tools.json:5:25: mcpServers.github.env.TOKEN: environment variable GITHUB_TOKEN is not set (referenced as ${GITHUB_TOKEN})',
    );
  });

  it('reports schema errors with the JSON path and its line', () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "ok": { "command": "x" },',
      '    "bad": {',
      '      "command": "y",',
      '      "enabletools": ["a"],',
      '      "timeout": "soon"',
      '    },',
      '    "neither": { "args": [] }',
      '  }',
      '}',
    ].join('\n');
    const error = errorOf(() => parseToolsConfig(text, { path: 'tools.json', env: {} }));
    expect(error.problems.map((problem) => [problem.path, problem.location?.line])).toEqual([
      ['mcpServers.bad.timeout', 7],
      ['mcpServers.bad.enabletools', 6],
      ['mcpServers.neither', 9],
    ]);
    expect(error.message).toContain("tools.json:6:22: mcpServers.bad.enabletools: unknown setting 'enabletools' (did you mean 'enableTools'?)");
    expect(error.message).toContain('tools.json:9:16: mcpServers.neither: a server needs either "command" (stdio) or "url" (http or sse)');
  });

  it('rejects a URL that is not http(s) and a transport that does not exist', () => {
    const error = errorOf(() =>
      parseToolsConfig('{"mcpServers":{"a":{"url":"ftp://x/y"},"b":{"url":"http://x","transport":"websocket"}}}', { env: {} }),
    );
    expect(error.problems.map((problem) => problem.path)).toEqual(['mcpServers.a.url', 'mcpServers.b.transport']);
  });

  it('points at an unknown top-level key', () => {
    const error = errorOf(() => parseToolsConfig('{\n  "mcpServer": {}\n}', { path: 'tools.json', env: {} }));
    expect(error.message).toBe("tools.json:2:16: mcpServer: unknown setting 'mcpServer'");
  });

  it('accepts a file with only permission rules', () => {
    expect(parseToolsConfig('{"allow":["x"]}', { env: {} })).toEqual({ allow: ['x'], deny: [], mcpServers: {} });
  });
});

describe('resolveMcpServers (servers passed in code)', () => {
  it('validates and substitutes the same way as the file', () => {
    const servers = resolveMcpServers(
      { fs: { command: 'mcp-fs', args: ['${ROOT}'], timeout: '2m', prefix: true } },
      { ROOT: '/srv' },
    );
    expect(servers).toEqual({ fs: { transport: 'stdio', command: 'mcp-fs', args: ['/srv'], env: {}, timeoutMs: 120_000, prefix: true } });
  });

  it("reads timeouts with Temporal's duration grammar, as every other duration of the project", () => {
    const servers = resolveMcpServers({ day: { command: 'a', timeout: '1d' }, hours: { command: 'b', timeout: '2 hours' } }, {});
    expect([servers.day!.timeoutMs, servers.hours!.timeoutMs]).toEqual([86_400_000, 7_200_000]);
  });

  it('names the variable and path when a variable is missing', () => {
    const error = errorOf(() => resolveMcpServers({ api: { url: 'https://${API_HOST}/mcp' } }, {}));
    expect(error.message).toBe('mcpServers.api.url: environment variable API_HOST is not set (referenced as ${API_HOST})');
  });
});
