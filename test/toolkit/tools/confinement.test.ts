import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, guardedCall, permissionOf, run } from './helpers/call-tool';
import { makeLayout, outsideSnapshot, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;
let tools: AnyTool[];

beforeEach(() => {
  layout = makeLayout();
  tools = harnessTools({ workspace: layout.workspace, sandbox: 'none' });
});
afterEach(() => layout.cleanup());

const escapes: Array<[string, (l: TempLayout) => string]> = [
  ['parent file', () => '../outside/secret.txt'],
  ['parent folder', () => '..'],
  ['parent with slash', () => '../'],
  ['dot then parent', () => './../outside/secret.txt'],
  ['down then up twice', () => 'src/../../outside/secret.txt'],
  ['dots mixed in', () => 'src/./../../outside/./secret.txt'],
  ['double slashes', () => '..//outside//secret.txt'],
  ['deep parents', () => '../../../../../../etc/hostname'],
  ['absolute outside file', (l) => path.join(l.outside, 'secret.txt')],
  ['absolute outside folder', (l) => l.outside],
  ['absolute system file', () => '/etc/hostname'],
  ['file system root', () => '/'],
  ['absolute through the workspace', (l) => `${l.workspace}/../outside/secret.txt`],
  ['symlink to a file outside', () => 'outfile'],
  ['symlink to a folder outside', () => 'outlink/secret.txt'],
  ['new file through a folder symlink', () => 'outlink/new.txt'],
  ['new nested file through a folder symlink', () => 'outlink/nested/deeper/new.txt'],
  ['dangling symlink to a missing file outside', () => 'dangling'],
  ['tilde', () => '~/secret.txt'],
];

const callsFor = (target: string): Array<[string, Record<string, unknown>]> => [
  ['read_file', { path: target }],
  ['write_file', { path: target, content: 'pwned' }],
  ['edit_file', { path: target, old_string: 'top secret', new_string: 'pwned' }],
  ['list_files', { path: target }],
  ['glob_files', { pattern: '**/*', path: target }],
  ['grep_files', { pattern: 'secret|data', path: target }],
];

describe('paths outside the workspace are refused', () => {
  describe.each(escapes)('%s', (_label, makePath) => {
    test.each(['read_file', 'write_file', 'edit_file', 'list_files', 'glob_files', 'grep_files'])('%s', async (toolName) => {
      const target = makePath(layout);
      const input = Object.fromEntries(callsFor(target))[toolName]!;
      const tool = findTool(tools, toolName);
      const before = outsideSnapshot(layout);

      const outcome = await guardedCall(tool, input);
      expect(outcome.kind).toBe('refused');
      if (outcome.kind === 'refused') {
        expect(outcome.decision.safety).toBe(true);
        expect(outcome.decision.reason).toMatch(/Access refused|outside the workspace|not expanded/);
      }
      // the tool refuses on its own too, should it ever be executed without its check
      await expect(run(tool, input)).rejects.toThrow(/Access refused/);

      expect(outsideSnapshot(layout)).toEqual(before);
      expect(fs.existsSync(path.join(layout.outside, 'new.txt'))).toBe(false);
      expect(fs.existsSync(path.join(layout.outside, 'missing.txt'))).toBe(false);
    });
  });

  test('glob patterns cannot climb out of the search folder', async () => {
    const before = outsideSnapshot(layout);
    await expect(run(findTool(tools, 'glob_files'), { pattern: '../outside/*' })).rejects.toThrow(/must not contain '\.\.'/);
    await expect(run(findTool(tools, 'glob_files'), { pattern: '/etc/*' })).rejects.toThrow(/must be relative/);
    await expect(run(findTool(tools, 'grep_files'), { pattern: 'secret', glob: '../**' })).rejects.toThrow(/must not contain '\.\.'/);
    expect(outsideSnapshot(layout)).toEqual(before);
  });

  test('symlinks are never followed out by the tree walkers', async () => {
    const globbed = await run(findTool(tools, 'glob_files'), { pattern: '**/*' });
    expect(globbed).not.toMatch(/secret\.txt|data\.txt/);
    fs.writeFileSync(path.join(layout.workspace, 'notes.txt'), 'inside secret\n');
    const grepped = await run(findTool(tools, 'grep_files'), { pattern: 'sec.et|outside.data' });
    expect(grepped).toContain('notes.txt:1:inside secret');
    expect(grepped).not.toMatch(/top secret|outside data/);
  });

  test('ordinary paths inside the workspace pass the check (the check can tell them apart)', async () => {
    for (const [toolName, input] of callsFor('src/main.ts')) {
      expect(await permissionOf(findTool(tools, toolName), input)).toBeUndefined();
    }
    expect(await permissionOf(findTool(tools, 'read_file'), { path: 'src/../README.md' })).toBeUndefined();
    expect(await permissionOf(findTool(tools, 'read_file'), { path: path.join(layout.workspace, 'README.md') })).toBeUndefined();
  });
});

describe('sensitive files and folders ask, as a safety check, even for read-only tools', () => {
  const sensitive = [
    '.env',
    '.env.local',
    '.ENV.Production',
    'config/.env',
    '.ssh/id_rsa',
    '.SSH/config',
    '.git/config',
    '.git/hooks/pre-commit',
    'credentials',
    'config/credentials.json',
    '.aws/credentials',
    '.npmrc',
    '.pypirc',
    'id_rsa',
    'id_ed25519.pub',
    'keys/server.pem',
  ];

  beforeEach(() => {
    for (const file of sensitive) {
      fs.mkdirSync(path.dirname(path.join(layout.workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(layout.workspace, file), 'API_KEY=sk-live-123\n');
    }
    fs.symlinkSync(path.join(layout.workspace, '.env'), path.join(layout.workspace, 'innocent.txt'));
    fs.symlinkSync(path.join(layout.workspace, '.ssh'), path.join(layout.workspace, 'keys-folder'));
  });

  const cases = [...sensitive, 'innocent.txt', 'keys-folder/id_rsa'];
  const modes = ['default', 'bypass', 'explore', 'accept_edits'] as const;

  test.each(cases)('%s', async (file) => {
    for (const [toolName, input] of [
      ['read_file', { path: file }],
      ['write_file', { path: file, content: 'x' }],
      ['edit_file', { path: file, old_string: 'API_KEY', new_string: 'X' }],
      ['grep_files', { pattern: 'API', path: file }],
    ] as const) {
      for (const mode of modes) {
        const decision = await permissionOf(findTool(tools, toolName), input, mode);
        expect(decision).toEqual(expect.objectContaining({ behavior: 'ask', safety: true }));
        expect(decision!.reason).toMatch(/sensitive location/);
      }
    }
  });

  test.each(['.ssh', '.git/hooks', 'keys-folder', '.aws'])('folder %s', async (folder) => {
    for (const toolName of ['list_files', 'glob_files', 'grep_files']) {
      const input = toolName === 'list_files' ? { path: folder } : { pattern: toolName === 'glob_files' ? '*' : 'x', path: folder };
      expect(await permissionOf(findTool(tools, toolName), input)).toEqual(expect.objectContaining({ behavior: 'ask', safety: true }));
    }
  });

  test('.env.example is not sensitive', async () => {
    fs.writeFileSync(path.join(layout.workspace, '.env.example'), 'API_KEY=\n');
    expect(await permissionOf(findTool(tools, 'read_file'), { path: '.env.example' })).toBeUndefined();
  });

  test('searching the whole workspace does not print sensitive files', async () => {
    const result = await run(findTool(tools, 'grep_files'), { pattern: 'API_KEY' });
    expect(result).not.toMatch(/sk-live-123/);
    expect(result).toMatch(/sensitive files? such as \.env skipped/);
  });
});
