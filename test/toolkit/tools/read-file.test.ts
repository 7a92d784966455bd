import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run } from './helpers/call-tool';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;
let readFile: AnyTool;

beforeEach(() => {
  layout = makeLayout();
  readFile = findTool(harnessTools({ workspace: layout.workspace, sandbox: 'none' }), 'read_file');
});
afterEach(() => layout.cleanup());

const write = (name: string, content: string | Buffer): void => fs.writeFileSync(path.join(layout.workspace, name), content);
const lines = (count: number, width = 0): string => Array.from({ length: count }, (_, i) => `line ${i + 1}${'x'.repeat(width)}`).join('\n') + '\n';

describe('read_file', () => {
  test('numbers the lines', async () => {
    write('a.txt', 'alpha\nbeta\ngamma\n');
    expect(await run(readFile, { path: 'a.txt' })).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
  });

  test('pages with offset and limit and says how to read on', async () => {
    write('long.txt', lines(50));
    const page = await run(readFile, { path: 'long.txt', offset: 11, limit: 5 });
    expect(page.split('\n').slice(0, 5)).toEqual(['    11\tline 11', '    12\tline 12', '    13\tline 13', '    14\tline 14', '    15\tline 15']);
    expect(page).toContain('[Showing lines 11-15 of 50. To read more, call read_file with offset=16.]');
    const last = await run(readFile, { path: 'long.txt', offset: 48 });
    expect(last).toBe('    48\tline 48\n    49\tline 49\n    50\tline 50');
  });

  test('uses a default page of 2000 lines', async () => {
    write('big.txt', Array.from({ length: 2500 }, (_, i) => String(i + 1)).join('\n'));
    const page = await run(readFile, { path: 'big.txt' });
    expect(page).toContain('  2000\t2000\n');
    expect(page).not.toContain('2001\t');
    expect(page).toContain('To read more, call read_file with offset=2001.');
  });

  test('keeps a page within the output budget even with long lines', async () => {
    write('wide.txt', lines(400, 300));
    const page = await run(readFile, { path: 'wide.txt' });
    expect(page.length).toBeLessThan(31_000);
    const next = /offset=(\d+)/.exec(page);
    expect(next).not.toBeNull();
    expect(Number(next![1])).toBeGreaterThan(50);
    expect(Number(next![1])).toBeLessThan(400);
  });

  test('cuts a single huge line with a marker', async () => {
    write('minified.js', 'a'.repeat(100_000));
    const page = await run(readFile, { path: 'minified.js' });
    expect(page.length).toBeLessThan(3000);
    expect(page).toContain('[... line cut at 2000 of 100000 characters]');
  });

  test('says when the offset is past the end, and when the file is empty', async () => {
    write('short.txt', 'one\n');
    write('empty.txt', '');
    expect(await run(readFile, { path: 'short.txt', offset: 5 })).toMatch(/has 1 lines; offset 5 is past the end/);
    expect(await run(readFile, { path: 'empty.txt' })).toMatch(/is empty/);
  });

  test('says a binary file is binary and never prints its bytes', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe]);
    write('image.png', png);
    const result = await run(readFile, { path: 'image.png' });
    expect(result).toBe(`'image.png' is a binary file (${png.length} bytes); its content is not shown.`);
  });

  test('says a non-UTF-8 text file is not UTF-8 instead of printing garbage', async () => {
    write('latin1.txt', Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1'));
    const result = await run(readFile, { path: 'latin1.txt' });
    expect(result).toMatch(/is not UTF-8 text \(\d+ bytes\)/);
    expect(result).not.toMatch(/caf|\uFFFD/);
  });

  test('reads UTF-8 with a byte order mark and CRLF line ends', async () => {
    write('windows.txt', '\uFEFFfirst\r\nsecond\r\n');
    expect(await run(readFile, { path: 'windows.txt' })).toBe('     1\tfirst\n     2\tsecond');
  });

  test('explains missing files and folders', async () => {
    await expect(run(readFile, { path: 'nope.txt' })).rejects.toThrow(/ENOENT|not found/i);
    await expect(run(readFile, { path: 'src' })).rejects.toThrow(/is a folder/);
  });
});
