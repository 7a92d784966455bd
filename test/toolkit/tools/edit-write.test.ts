import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run } from './helpers/call-tool';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;
let tools: AnyTool[];

beforeEach(() => {
  layout = makeLayout();
  tools = harnessTools({ workspace: layout.workspace, sandbox: 'none' });
});
afterEach(() => layout.cleanup());

const file = (name: string): string => path.join(layout.workspace, name);
const read = (name: string): string => fs.readFileSync(file(name), 'utf8');

describe('write_file', () => {
  test('creates missing folders and the file', async () => {
    const result = await run(findTool(tools, 'write_file'), { path: 'deep/er/new.txt', content: 'hello\n' });
    expect(result).toBe("Created 'deep/er/new.txt' (6 bytes).");
    expect(read('deep/er/new.txt')).toBe('hello\n');
  });

  test('overwrites an existing file', async () => {
    expect(await run(findTool(tools, 'write_file'), { path: 'README.md', content: 'new' })).toMatch(/^Overwrote/);
    expect(read('README.md')).toBe('new');
  });

  test('refuses to overwrite a folder', async () => {
    await expect(run(findTool(tools, 'write_file'), { path: 'src', content: 'x' })).rejects.toThrow(/is a folder/);
  });

  test('writes through a symlink that stays inside the workspace', async () => {
    fs.symlinkSync(file('README.md'), file('readme-link'));
    await run(findTool(tools, 'write_file'), { path: 'readme-link', content: 'via link' });
    expect(read('README.md')).toBe('via link');
  });
});

describe('edit_file', () => {
  beforeEach(() => fs.writeFileSync(file('code.ts'), 'const a = 1;\nconst b = 1;\nconst c = 2;\n'));

  test('replaces a unique match', async () => {
    expect(await run(findTool(tools, 'edit_file'), { path: 'code.ts', old_string: 'const c = 2;', new_string: 'const c = 3;' })).toBe(
      "Edited 'code.ts': replaced 1 occurrence.",
    );
    expect(read('code.ts')).toBe('const a = 1;\nconst b = 1;\nconst c = 3;\n');
  });

  test('says when the text is not found', async () => {
    await expect(run(findTool(tools, 'edit_file'), { path: 'code.ts', old_string: 'const d', new_string: 'x' })).rejects.toThrow(
      "old_string was not found in 'code.ts'",
    );
    expect(read('code.ts')).toBe('const a = 1;\nconst b = 1;\nconst c = 2;\n');
  });

  test('says how many times an ambiguous match was found and changes nothing', async () => {
    await expect(run(findTool(tools, 'edit_file'), { path: 'code.ts', old_string: ' = 1;', new_string: ' = 9;' })).rejects.toThrow(
      "old_string was found 2 times in 'code.ts'",
    );
    expect(read('code.ts')).toBe('const a = 1;\nconst b = 1;\nconst c = 2;\n');
  });

  test('replace_all replaces every occurrence', async () => {
    expect(await run(findTool(tools, 'edit_file'), { path: 'code.ts', old_string: ' = 1;', new_string: ' = 9;', replace_all: true })).toBe(
      "Edited 'code.ts': replaced 2 occurrences.",
    );
    expect(read('code.ts')).toBe('const a = 9;\nconst b = 9;\nconst c = 2;\n');
  });

  test('inserts replacement text literally ($& and $1 are not patterns)', async () => {
    await run(findTool(tools, 'edit_file'), { path: 'code.ts', old_string: 'const c = 2;', new_string: "const c = '$&$1$$';" });
    expect(read('code.ts')).toContain("const c = '$&$1$$';");
  });

  test('refuses identical strings, missing files and binary files', async () => {
    await expect(run(findTool(tools, 'edit_file'), { path: 'code.ts', old_string: 'a', new_string: 'a' })).rejects.toThrow(/the same/);
    await expect(run(findTool(tools, 'edit_file'), { path: 'nope.ts', old_string: 'a', new_string: 'b' })).rejects.toThrow(/File not found/);
    fs.writeFileSync(file('blob.bin'), Buffer.from([1, 0, 2, 0, 97]));
    await expect(run(findTool(tools, 'edit_file'), { path: 'blob.bin', old_string: 'a', new_string: 'b' })).rejects.toThrow(/binary file/);
    expect(fs.readFileSync(file('blob.bin'))).toEqual(Buffer.from([1, 0, 2, 0, 97]));
  });

  test('keeps a byte order mark', async () => {
    fs.writeFileSync(file('bom.txt'), '\uFEFFhello\n');
    await run(findTool(tools, 'edit_file'), { path: 'bom.txt', old_string: 'hello', new_string: 'bye' });
    expect(fs.readFileSync(file('bom.txt'), 'utf8')).toBe('\uFEFFbye\n');
  });
});

describe('tool flags', () => {
  test('read-only and editing tools are marked as such', () => {
    const flags = Object.fromEntries(tools.map((t) => [t.name, { readOnly: !!t.readOnly, edits: !!t.edits, source: t.source }]));
    expect(flags).toEqual({
      read_file: { readOnly: true, edits: false, source: 'builtin' },
      write_file: { readOnly: false, edits: true, source: 'builtin' },
      edit_file: { readOnly: false, edits: true, source: 'builtin' },
      list_files: { readOnly: true, edits: false, source: 'builtin' },
      glob_files: { readOnly: true, edits: false, source: 'builtin' },
      grep_files: { readOnly: true, edits: false, source: 'builtin' },
      bash: { readOnly: false, edits: false, source: 'builtin' },
      skill: { readOnly: true, edits: false, source: 'builtin' },
    });
  });
});
