import { testConnection } from '../helpers/temporal-env';
test('b', async () => {
  await new Promise((r) => setTimeout(r, 3000));
  const conn = await testConnection();
  expect((await conn.workflowService.getSystemInfo({})).serverVersion).toBeTruthy();
});
