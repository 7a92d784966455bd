import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkShellCommand } from '../../../src/toolkit/tools/shell/check-shell-command';
import { bwrapUnavailable } from './helpers/bwrap-support';
import { pidNamespaceUnavailable } from './helpers/pid-namespace-support';
import { waitUntil } from './helpers/process-state';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

// The worker's API keys are in its initial environment, which /proc/<pid>/environ shows to any
// process of the same user. Each test starts a stand-in worker with a fake key in its initial
// environment and runs these commands through its real bash tool, as if they had been approved.
const SECRET = `sk-test-LEAK-${process.pid}-${Date.now()}`;
const ROOT = path.resolve(__dirname, '../../..');
const WORKER = path.join(__dirname, 'helpers', 'leak-worker.ts');

// NUL bytes would make the tool hide the output as binary data, so every read goes through tr.
const leaks = [
  'cat /proc/$PPID/environ | tr "\\0" "\\n"',
  'cat /proc/$PPID/task/$PPID/environ | tr "\\0" "\\n"',
  'cd /proc/$PPID && tr "\\0" "\\n" < environ',
  'cat /proc/[0-9]*/environ | tr "\\0" "\\n"',
  'cat /proc/*/task/*/environ | tr "\\0" "\\n"',
  'grep -aho "sk-test-LEAK[^[:space:]]*" /proc/[0-9]*/environ | tr "\\0" "\\n"',
  'p=$PPID; tr "\\0" "\\n" < /proc/${p}/environ',
  'sh -c "cat /pr\'\'oc/$PPID/envir\\on" | tr "\\0" "\\n"',
  'ps auxeww',
  'ps eww -o args= -p $PPID',
  'ps -E',
  'cat /proc/self/environ /proc/thread-self/environ | tr "\\0" "\\n"',
  'umount /proc; cat /proc/[0-9]*/environ | tr "\\0" "\\n"',
];
const PROOF = leaks.findIndex((command) => command.includes('/proc/self/environ'));

let layout: TempLayout;
let toolBin: string;

beforeAll(() => {
  // the programs the commands above use, but no bwrap: a machine without bubblewrap
  toolBin = fs.mkdtempSync(path.join(os.tmpdir(), 'no-bwrap-tools-'));
  for (const tool of ['sh', 'bash', 'cat', 'tr', 'grep', 'ps', 'umount']) {
    const found = ['/usr/bin', '/bin'].map((folder) => path.join(folder, tool)).find((candidate) => fs.existsSync(candidate));
    if (found) fs.symlinkSync(found, path.join(toolBin, tool));
  }
});
afterAll(() => fs.rmSync(toolBin, { recursive: true, force: true }));
beforeEach(() => {
  layout = makeLayout();
});
afterEach(() => layout.cleanup());

interface WorkerReport {
  pid: number;
  isolation: string;
  outputs: string[];
}

/** Run the commands in a stand-in worker whose initial environment holds SECRET; also confirm that its /proc entry shows it. */
async function runInWorker(sandbox: 'auto' | 'bwrap' | 'none' | 'plain', PATH: string): Promise<WorkerReport> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', WORKER, JSON.stringify({ workspace: layout.workspace, sandbox, commands: leaks })], {
    cwd: ROOT,
    env: { ...process.env, PATH, OPENAI_API_KEY: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const readable = await waitUntil(() => {
    try {
      return fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8').includes(`OPENAI_API_KEY=${SECRET}`);
    } catch {
      return false;
    }
  }, 10_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the stand-in worker failed (${code}): ${stderr}`);
  // the leak is real: the worker's initial environment, readable by the same user, holds the key
  expect(readable).toBe(true);
  return JSON.parse(stdout) as WorkerReport;
}

function expectNoLeak(report: WorkerReport): void {
  expect(report.outputs).toHaveLength(leaks.length);
  report.outputs.forEach((output, i) => {
    expect({ command: leaks[i], leaked: output.includes(SECRET) }).toEqual({ command: leaks[i], leaked: false });
  });
  // the commands did run and read /proc: they only ever see the clean environment
  expect(report.outputs[PROOF]).toMatch(/^Exit code: 0\n[^]*\nHOME=/);
}

describe('the shell check asks before a command reads process information', () => {
  test.each(leaks)('%j', (command) => {
    for (const mode of ['bypass', 'accept_edits', 'default'] as const) {
      expect(checkShellCommand(command, { workspace: layout.workspace, mode })).toEqual(expect.objectContaining({ behavior: 'ask', safety: true }));
    }
  });
});

describe("approved anyway, these commands never print the worker's API key", () => {
  const bwrapTest = bwrapUnavailable ? test.skip : test;
  const namespaceTest = pidNamespaceUnavailable ? test.skip : test;
  if (bwrapUnavailable) console.warn(`Skipping the bubblewrap leak test: ${bwrapUnavailable}`);
  if (pidNamespaceUnavailable) console.warn(`Skipping the PID namespace leak tests: ${pidNamespaceUnavailable}`);

  bwrapTest('under bubblewrap', async () => {
    const report = await runInWorker('bwrap', process.env.PATH!);
    expect(report.isolation).toBe('bubblewrap');
    expectNoLeak(report);
  }, 60_000);

  namespaceTest("with sandbox 'none': in a PID namespace", async () => {
    const report = await runInWorker('none', process.env.PATH!);
    expect(report.isolation).toBe('pid-namespace');
    expectNoLeak(report);
  }, 60_000);

  namespaceTest("with sandbox 'auto' on a machine without bubblewrap (nor unshare on PATH): in a PID namespace", async () => {
    const report = await runInWorker('auto', toolBin);
    expect(report.isolation).toBe('pid-namespace');
    expectNoLeak(report);
  }, 60_000);

  test('as plain child processes of the worker they would (so the tests above can fail)', async () => {
    const report = await runInWorker('plain', process.env.PATH!);
    const leaked = leaks.filter((_, i) => report.outputs[i]!.includes(SECRET));
    // `ps auxeww` may be cut at the tool's output cap before it reaches the worker on a busy machine; the targeted form is not.
    expect(leaked).toEqual(expect.arrayContaining([leaks[0], leaks[1], leaks[2], leaks[6], 'ps eww -o args= -p $PPID']));
  }, 60_000);
});
