import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** `npm start -- <args>` without a terminal, on the tests' server and a task queue of its own: its exit code and all it printed. `env`: more of its environment. */
export function runDemoProcess(args: string[], queuePrefix: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'src', 'demo', 'main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS!, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', TEMPORAL_TASK_QUEUE: `${queuePrefix}-${Date.now()}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}
