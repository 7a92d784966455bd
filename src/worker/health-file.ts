import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Worker } from '@temporalio/worker';

/** What the worker writes to AGENT_HEALTH_FILE, and `durable-agent health` reads. */
export interface WorkerHealthRecord {
  healthy: boolean;
  state: string;
  workflowPoller: string;
  activityPoller: string;
  pid: number;
  /** Epoch milliseconds: a record older than HEALTH_MAX_AGE_MS means a stuck or dead process. */
  writtenAt: number;
}

export const HEALTH_WRITE_INTERVAL_MS = 5_000;
export const HEALTH_MAX_AGE_MS = 30_000;

function healthRecord(worker: Pick<Worker, 'getStatus'>): WorkerHealthRecord {
  const status = worker.getStatus();
  return {
    healthy: status.runState === 'RUNNING' && status.workflowPollerState !== 'FAILED' && status.activityPollerState !== 'FAILED',
    state: status.runState,
    workflowPoller: status.workflowPollerState,
    activityPoller: status.activityPollerState,
    pid: process.pid,
    writtenAt: Date.now(),
  };
}

/**
 * Keeps `path` fresh while the worker runs: its state and pollers, rewritten every few seconds
 * from the event loop, so a blocked process goes stale too. Removed on stop.
 */
export function startHealthFile(path: string, worker: Pick<Worker, 'getStatus'>, intervalMs = HEALTH_WRITE_INTERVAL_MS): { stop(): void } {
  const write = () => {
    try {
      // Renamed into place, so the check never reads half a record.
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, JSON.stringify(healthRecord(worker)));
      renameSync(partial, path);
    } catch (error) {
      console.error(`[durable-agent] could not write the health file ${path}: ${(error as Error).message}`);
    }
  };
  write();
  const timer = setInterval(write, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      rmSync(path, { force: true });
    },
  };
}
