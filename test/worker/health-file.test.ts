import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkerStatus } from '@temporalio/worker';
import { checkHealthFile } from '../../src/worker/health-check';
import { HEALTH_MAX_AGE_MS, startHealthFile, type WorkerHealthRecord } from '../../src/worker/health-file';

const dir = mkdtempSync(join(tmpdir(), 'health-file-'));

function fakeWorker(status: Partial<WorkerStatus>) {
  return { getStatus: () => ({ runState: 'RUNNING', workflowPollerState: 'POLLING', activityPollerState: 'POLLING', ...status }) as WorkerStatus };
}

describe('the worker health file and its check', () => {
  test('a running, polling worker is healthy; stopping removes the file', () => {
    const path = join(dir, 'running.health');
    const health = startHealthFile(path, fakeWorker({}));
    expect(checkHealthFile(path)).toEqual({ healthy: true, reason: 'healthy: state RUNNING, workflow poller POLLING, activity poller POLLING' });
    health.stop();
    expect(existsSync(path)).toBe(false);
    expect(checkHealthFile(path)).toMatchObject({ healthy: false, reason: expect.stringContaining('does not exist') });
  });

  test.each([
    [{ workflowPollerState: 'FAILED' as const }, 'workflow poller FAILED'],
    [{ runState: 'DRAINING' as const }, 'state DRAINING'],
  ])('%j is unhealthy', (status, reason) => {
    const path = join(dir, `unhealthy-${Math.random()}.health`);
    const health = startHealthFile(path, fakeWorker(status));
    expect(checkHealthFile(path)).toEqual({ healthy: false, reason: expect.stringContaining(reason) });
    health.stop();
  });

  test('a record older than the maximum age means a stuck or dead process', () => {
    const path = join(dir, 'stale.health');
    const health = startHealthFile(path, fakeWorker({}));
    const record = JSON.parse(readFileSync(path, 'utf8')) as WorkerHealthRecord;
    expect(checkHealthFile(path, record.writtenAt + HEALTH_MAX_AGE_MS + 1)).toMatchObject({ healthy: false, reason: expect.stringContaining('stuck or gone') });
    health.stop();
  });
});
