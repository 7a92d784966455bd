import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run, toolContext } from './helpers/call-tool';
import { sandboxTest } from './helpers/bwrap-support';
import { processesWith, sleep, uniqueSleep, waitUntil } from './helpers/process-state';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;
let bash: AnyTool;

const bashWith = (sandbox: 'none' | 'bwrap', shellTimeoutMs?: number): AnyTool =>
  findTool(harnessTools({ workspace: layout.workspace, sandbox, shellTimeoutMs }), 'bash');

beforeEach(() => {
  layout = makeLayout();
  bash = bashWith('none');
});
afterEach(() => layout.cleanup());

describe('bash without bubblewrap (own PID namespace where the machine allows it)', () => {
  test('returns the exit code, then stdout and stderr in the order written', async () => {
    expect(await run(bash, { command: 'echo one; echo two >&2; echo three; exit 7' })).toBe('Exit code: 7\none\ntwo\nthree\n');
    expect(await run(bash, { command: 'true' })).toBe('Exit code: 0\n(no output)');
  });

  test('runs in the workspace, or in the given folder inside it', async () => {
    expect(await run(bash, { command: 'pwd' })).toBe(`Exit code: 0\n${layout.workspace}\n`);
    expect(await run(bash, { command: 'pwd', cwd: 'src' })).toBe(`Exit code: 0\n${path.join(layout.workspace, 'src')}\n`);
    await expect(run(bash, { command: 'pwd', cwd: '../outside' })).rejects.toThrow(/Access refused/);
    await expect(run(bash, { command: 'pwd', cwd: 'missing' })).rejects.toThrow(/does not exist/);
  });

  test('gives the command a clean environment without the worker secrets', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-must-not-leak';
    try {
      const output = await run(bash, { command: 'env' });
      expect(output).not.toContain('sk-test-must-not-leak');
      const names = output.split('\n').slice(1).filter(Boolean).map((line) => line.split('=')[0]);
      expect(names.filter((name) => !['PWD', 'SHLVL', '_'].includes(name!)).sort()).toEqual(['HOME', 'LANG', 'PATH']);
      expect(output).toContain(`HOME=${layout.workspace}\n`);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  test('caps huge output with a visible marker, keeping the start and the end', async () => {
    const output = await run(bash, { command: 'seq 1 200000' });
    expect(output.startsWith('Exit code: 0\n1\n2\n3\n')).toBe(true);
    expect(output.trimEnd().endsWith('199999\n200000')).toBe(true);
    expect(output).toMatch(/\[\.\.\. output truncated: \d+ of 1288895 characters omitted, showing the first 15000 and the last 15000 \.\.\.\]/);
    expect(output.length).toBeLessThan(30_200);
  });

  test('does not print binary output', async () => {
    const output = await run(bash, { command: 'head -c 4000 /dev/urandom; printf "\\0\\1\\2"' });
    expect(output).toMatch(/^Exit code: 0\n\[the command printed binary data \(\d+ characters\); it is not shown/);
  });

  test('kills a command at its timeout, with everything it started', async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    const call = run(bash, { command: `sleep ${marker} & sleep 300`, timeout: 1 });
    expect(await waitUntil(() => processesWith(marker).length > 0, 3_000)).toBe(true);
    const output = await call;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output).toMatch(/^Exit code: 124 \(timed out after 1 s; the command and everything it started were killed\)/);
    expect(await waitUntil(() => processesWith(marker).length === 0, 2_000)).toBe(true);
  });

  test('uses the configured default timeout and validates the per-call one', async () => {
    const output = await run(bashWith('none', 500), { command: 'sleep 30' });
    expect(output).toMatch(/^Exit code: 124 \(timed out after 0\.5 s/);
    expect(() => bash.input.parse({ command: 'ls', timeout: 601 })).toThrow();
    expect(() => bash.input.parse({ command: 'ls', timeout: 600 })).not.toThrow();
  });

  test('kills the command when the call is cancelled', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const started = Date.now();
    const call = run(bash, { command: `sleep ${marker} & sleep 300` }, toolContext(controller.signal));
    expect(await waitUntil(() => processesWith(marker).length > 0, 3_000)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow(/cancelled/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await waitUntil(() => processesWith(marker).length === 0, 2_000)).toBe(true);
  });

  test('a child left running in the background is gone when the call returns', async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    const call = run(bash, { command: `sleep ${marker} & sleep 0.5; echo done` });
    expect(await waitUntil(() => processesWith(marker).length > 0, 3_000)).toBe(true);
    expect(await call).toBe('Exit code: 0\ndone\n');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await waitUntil(() => processesWith(marker).length === 0, 2_000)).toBe(true);
  });

  test('a detached grandchild does not act after the call', async () => {
    await run(bash, { command: '(sleep 1; touch late.txt) > /dev/null 2>&1 & echo started' });
    await sleep(2_500);
    expect(fs.existsSync(path.join(layout.workspace, 'late.txt'))).toBe(false);
  });
});

describe('bash under bubblewrap', () => {
  sandboxTest('returns the exit code and output', async () => {
    expect(await run(bashWith('bwrap'), { command: 'echo in-sandbox; echo err >&2; exit 3' })).toBe('Exit code: 3\nin-sandbox\nerr\n');
  });

  sandboxTest('the workspace is writable', async () => {
    await run(bashWith('bwrap'), { command: 'echo made > made.txt' });
    expect(fs.readFileSync(path.join(layout.workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });

  sandboxTest('times out and kills everything in the sandbox', async () => {
    const started = Date.now();
    const output = await run(bashWith('bwrap'), { command: '(sleep 2; touch late.txt) & sleep 300', timeout: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output).toMatch(/^Exit code: 124/);
    await sleep(2_500);
    expect(fs.existsSync(path.join(layout.workspace, 'late.txt'))).toBe(false);
  });

  sandboxTest('a background grandchild does not outlive the call', async () => {
    const started = Date.now();
    await run(bashWith('bwrap'), { command: '(sleep 1; touch late.txt) > /dev/null 2>&1 & echo started' });
    expect(Date.now() - started).toBeLessThan(5_000);
    await sleep(2_500);
    expect(fs.existsSync(path.join(layout.workspace, 'late.txt'))).toBe(false);
  });
});
