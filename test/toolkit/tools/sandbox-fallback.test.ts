import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import { findTool, run } from './helpers/call-tool';
import { pidNamespaceTest } from './helpers/pid-namespace-support';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

// This file gets its own module registry, so the bubblewrap probe runs here afresh with a
// PATH that has no bwrap on it: the situation of a machine without bubblewrap. unshare is not
// on that PATH either; it is found in the system folders.
let layout: TempLayout;
let emptyBin: string;
const savedPath = process.env.PATH;

beforeAll(() => {
  emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'no-bwrap-'));
  process.env.PATH = emptyBin;
});
afterAll(() => {
  process.env.PATH = savedPath;
  fs.rmSync(emptyBin, { recursive: true, force: true });
});
beforeEach(() => {
  layout = makeLayout();
});
afterEach(() => layout.cleanup());

describe('without bubblewrap', () => {
  test("'bwrap' refuses to run the command unsandboxed", async () => {
    const bash = findTool(harnessTools({ workspace: layout.workspace, sandbox: 'bwrap' }), 'bash');
    await expect(run(bash, { command: 'echo hi > ran.txt' })).rejects.toThrow(/bwrap sandbox was requested but cannot be used: bwrap is not installed/);
    expect(fs.existsSync(path.join(layout.workspace, 'ran.txt'))).toBe(false);
  });

  test("'auto' runs the command without bubblewrap and warns once", async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const bash = findTool(harnessTools({ workspace: layout.workspace, sandbox: 'auto' }), 'bash');
      expect(await run(bash, { command: 'echo first' })).toBe('Exit code: 0\nfirst\n');
      expect(await run(bash, { command: 'echo second' })).toBe('Exit code: 0\nsecond\n');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/bash tool is NOT sandboxed/);
    } finally {
      warn.mockRestore();
    }
  });

  pidNamespaceTest("'auto' still gives the command its own PID namespace", async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const bash = findTool(harnessTools({ workspace: layout.workspace, sandbox: 'auto' }), 'bash');
      expect(await run(bash, { command: 'echo "$$ $PPID"' })).toBe('Exit code: 0\n1 0\n');
    } finally {
      warn.mockRestore();
    }
  });
});
