import { existsSync } from 'node:fs';
import { canRestartDevServer, restartDevServer, testConnection, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';

test('env', async () => {
  const keys = Object.keys(process.env).filter((k) => k.startsWith('TEMPORAL_TEST')).sort();
  console.log(keys.map((k) => `${k}=${process.env[k]}`).join('\n'));
  if (process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE) expect(existsSync(workflowBundle().codePath)).toBe(true);
  const conn = await testConnection();
  const res = await conn.workflowService.getSystemInfo({});
  expect(res.serverVersion).toBeTruthy();
  console.log(uniqueTaskQueue('probe'), canRestartDevServer());
  if (canRestartDevServer()) {
    const before = process.env.TEMPORAL_TEST_PID;
    const r = await restartDevServer();
    console.log('restarted', before, '->', r.pid);
    const again = await conn.workflowService.getSystemInfo({});
    expect(again.serverVersion).toBeTruthy();
  }
});
