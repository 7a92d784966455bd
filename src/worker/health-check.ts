import { readFileSync } from 'node:fs';
import { HEALTH_MAX_AGE_MS, type WorkerHealthRecord } from './health-file';

/** Whether the worker that writes `path` is healthy: running, polling, and its record fresh. */
export function checkHealthFile(path: string, now = Date.now(), maxAgeMs = HEALTH_MAX_AGE_MS): { healthy: boolean; reason: string } {
  let record: WorkerHealthRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as WorkerHealthRecord;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { healthy: false, reason: missing ? `${path} does not exist: the worker is not running (yet)` : `${path} is unreadable: ${(error as Error).message}` };
  }
  const age = now - record.writtenAt;
  if (!(age <= maxAgeMs)) return { healthy: false, reason: `the worker (pid ${record.pid}) last wrote ${path} ${Math.round(age / 1000)} s ago: stuck or gone` };
  const detail = `state ${record.state}, workflow poller ${record.workflowPoller}, activity poller ${record.activityPoller}`;
  return { healthy: record.healthy, reason: `${record.healthy ? 'healthy' : 'unhealthy'}: ${detail}` };
}
