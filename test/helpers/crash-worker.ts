import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import type { AgentRun } from '../../src/client/agent-run';
import { waitFor } from './wait-for';

const ROOT = join(__dirname, '..', '..');
const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

/** A worker script of the tests in its own process, resolved once it prints `worker ready`. */
export function spawnWorkerProcess(script: string, env: Record<string, string>, what = 'worker'): Promise<ChildProcess> {
  // One process (no tsx launcher in between), so SIGKILL really kills the worker.
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, script)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      if (String(d).includes('worker ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited early (${code}): ${stderr}`)));
  });
}

/** A worker of test/fixtures/worker-process.ts (the crash-test agent) in its own process. */
export function spawnWorker(taskQueue: string, baseURL: string, ledgerDir = tmpdir()): Promise<ChildProcess> {
  return spawnWorkerProcess(join('test', 'fixtures', 'worker-process.ts'), { TASK_QUEUE: taskQueue, MODEL_BASE_URL: baseURL, LEDGER_DIR: ledgerDir });
}

/** Kills the process without warning and waits for it to be gone. */
export async function killProcess(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * Wait until an activity (of this type, at this attempt or any) is running, then kill the worker
 * without warning. A killed worker's attempt stays STARTED on the server until it times out: to
 * kill the worker of a retry, name its attempt. The server calls an attempt started when a worker
 * takes it, before the tool's code runs: a test that counts what the tool did uses killOnceDone.
 */
export async function killWhenActivityRuns(run: AgentRun, worker: ChildProcess, activity: string, attempt?: number): Promise<void> {
  for (;;) {
    const pending = (await run.handle.describe()).raw.pendingActivities ?? [];
    if (pending.some((a) => a.activityType?.name === activity && a.state === STARTED && (attempt === undefined || a.attempt === attempt))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await killProcess(worker);
}

/** Wait until the tool's code has done something the test can see (`done()`), then kill the worker without warning. */
export async function killOnceDone(done: () => boolean, what: string, worker: ChildProcess): Promise<void> {
  await waitFor(async () => (done() ? true : undefined), what, 60_000);
  await killProcess(worker);
}

/** Wait until a tool activity is running on the child worker, then kill it without warning. */
export function killWhenToolRuns(run: AgentRun, worker: ChildProcess): Promise<void> {
  return killWhenActivityRuns(run, worker, 'executeTool');
}
