import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve, sep } from 'node:path';
import { stopDevServerByPid, type DevServer } from '../../scripts/dev-server.cjs';
import { readDevServerPid, TEST_ENV } from './temporal-env';

/** Handles global setup leaves for teardown; both run in jest's main process. */
export interface GlobalTestState {
  devServer?: DevServer;
  fallback?: { teardown(): Promise<void> };
}
export const GLOBAL_STATE_KEY = '__durableAgentTemporalTestState';

function removeStateDir(dir: string | undefined): void {
  if (!dir) return;
  const absolute = resolve(dir);
  if (!absolute.startsWith(resolve(tmpdir()) + sep)) return;
  rmSync(absolute, { recursive: true, force: true });
}

export default async function globalTeardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  const state = globals[GLOBAL_STATE_KEY] as GlobalTestState | undefined;
  delete globals[GLOBAL_STATE_KEY];
  const pidFile = process.env[TEST_ENV.pidFile];
  // A test may have restarted the server from a worker process: the PID file has its PID.
  const pid = pidFile ? readDevServerPid(pidFile) : undefined;
  if (pid) await stopDevServerByPid(pid);
  await state?.devServer?.stop();
  await state?.fallback?.teardown();
  removeStateDir(process.env[TEST_ENV.stateDir]);
}
