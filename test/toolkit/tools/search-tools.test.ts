import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run } from './helpers/call-tool';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;
let tools: AnyTool[];

const write = (name: string, content: string | Buffer): void => {
  fs.mkdirSync(path.dirname(path.join(layout.workspace, name)), { recursive: true });
  fs.writeFileSync(path.join(layout.workspace, name), content);
};

beforeEach(() => {
  layout = makeLayout();
  tools = harnessTools({ workspace: layout.workspace, sandbox: 'none' });
  write('src/util/strings.ts', 'export function pad(s: string) {\n  return s.padStart(4);\n}\n');
  write('src/util/numbers.ts', 'export const TWO = 2;\n');
  write('docs/guide.md', '# Guide\nUse pad() to pad.\n');
  write('node_modules/lib/index.ts', 'export function pad() {}\n');
  write('.git/HEAD', 'ref: refs/heads/main\n');
});
afterEach(() => layout.cleanup());

describe('list_files', () => {
  test('lists one folder, marking folders and links', async () => {
    expect(await run(findTool(tools, 'list_files'), {})).toBe(
      ['.git/', 'README.md', 'dangling@', 'docs/', 'node_modules/', 'outfile@', 'outlink@', 'src/'].join('\n'),
    );
    expect(await run(findTool(tools, 'list_files'), { path: 'src/util' })).toBe('numbers.ts\nstrings.ts');
  });

  test('explains files and missing folders', async () => {
    await expect(run(findTool(tools, 'list_files'), { path: 'README.md' })).rejects.toThrow(/is a file/);
    await expect(run(findTool(tools, 'list_files'), { path: 'nope' })).rejects.toThrow(/Folder not found/);
  });

  test('caps a huge folder with a marker', async () => {
    for (let i = 0; i < 1200; i++) write(`many/file-${String(i).padStart(4, '0')}.txt`, '');
    const result = await run(findTool(tools, 'list_files'), { path: 'many' });
    expect(result.split('\n')).toHaveLength(1001);
    expect(result).toMatch(/\[\.\.\. 200 more entries not shown \(1200 in all\) \.\.\.\]$/);
  });
});

describe('glob_files', () => {
  test('matches across folders with ** and within one with *', async () => {
    expect(await run(findTool(tools, 'glob_files'), { pattern: '**/*.ts' })).toBe('src/main.ts\nsrc/util/numbers.ts\nsrc/util/strings.ts');
    expect(await run(findTool(tools, 'glob_files'), { pattern: '*.md' })).toBe('README.md');
    expect(await run(findTool(tools, 'glob_files'), { pattern: '**/*.{md,ts}', path: 'docs' })).toBe('docs/guide.md');
    expect(await run(findTool(tools, 'glob_files'), { pattern: 'src/util/[n]*.ts' })).toBe('src/util/numbers.ts');
  });

  test('skips node_modules and .git unless the pattern names them', async () => {
    expect(await run(findTool(tools, 'glob_files'), { pattern: '**/index.ts' })).toMatch(/^No files match/);
    expect(await run(findTool(tools, 'glob_files'), { pattern: 'node_modules/**/index.ts' })).toBe('node_modules/lib/index.ts');
  });

  test('caps huge results with a marker', async () => {
    for (let i = 0; i < 1100; i++) write(`gen/f${i}.txt`, '');
    const result = await run(findTool(tools, 'glob_files'), { pattern: 'gen/*.txt' });
    expect(result.split('\n')).toHaveLength(1001);
    expect(result).toMatch(/output truncated: 100 more matching files not shown/);
  });
});

describe('grep_files', () => {
  test('prints path:line:text for matches', async () => {
    expect(await run(findTool(tools, 'grep_files'), { pattern: 'pad\\(' })).toBe(
      ['docs/guide.md:2:Use pad() to pad.', 'src/util/strings.ts:1:export function pad(s: string) {'].join('\n'),
    );
  });

  test('filters by glob (any depth without a slash) and by path', async () => {
    expect(await run(findTool(tools, 'grep_files'), { pattern: 'pad', glob: '*.md' })).toBe('docs/guide.md:2:Use pad() to pad.');
    expect(await run(findTool(tools, 'grep_files'), { pattern: 'export', path: 'src/util', glob: 'num*' })).toBe(
      'src/util/numbers.ts:1:export const TWO = 2;',
    );
    expect(await run(findTool(tools, 'grep_files'), { pattern: 'TWO', path: 'src/util/numbers.ts' })).toBe('src/util/numbers.ts:1:export const TWO = 2;');
  });

  test('skips binary and non-UTF-8 files', async () => {
    write('bin/blob.dat', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3])]));
    write('bin/latin1.txt', Buffer.from('needle caf\xe9\n', 'latin1'));
    write('ok.txt', 'needle here\n');
    const result = await run(findTool(tools, 'grep_files'), { pattern: 'needle' });
    expect(result).toBe('ok.txt:1:needle here\n(2 binary or non-UTF-8 files skipped)');
  });

  test('bounds huge output with a marker', async () => {
    write('huge.log', Array.from({ length: 5000 }, (_, i) => `match number ${i} ${'y'.repeat(40)}`).join('\n'));
    const result = await run(findTool(tools, 'grep_files'), { pattern: 'match' });
    expect(result.length).toBeLessThan(31_000);
    expect(result).toMatch(/\[\.\.\. output truncated: \d+ more matching lines not shown/);
    expect(result.startsWith('huge.log:1:match number 0')).toBe(true);
  });

  test('reports an invalid regular expression', async () => {
    await expect(run(findTool(tools, 'grep_files'), { pattern: '(unclosed' })).rejects.toThrow(/Invalid regular expression/);
  });

  test('says when nothing matches', async () => {
    expect(await run(findTool(tools, 'grep_files'), { pattern: 'zzz-nothing' })).toMatch(/^No matches for \/zzz-nothing\//);
  });
});
