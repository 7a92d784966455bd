import { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { agentBundleOptions } from '../../src/worker/agent-bundle-options';
import { testAddress, testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

/** Runs the probe workflow twice on a worker of a bundle made with `options`: whether each run saw the shared agent code. */
async function probe(options: ReturnType<typeof agentBundleOptions>): Promise<boolean[]> {
  const { code } = await bundleWorkflowCode({ ...options, workflowsPath: require.resolve('../fixtures/shared-modules-probe/workflows'), logger: new DefaultLogger('WARN') });
  const taskQueue = uniqueTaskQueue('shared-modules');
  const connection = await NativeConnection.connect({ address: testAddress() });
  const worker = await Worker.create({ connection, taskQueue, workflowBundle: { code } });
  const client = new Client({ connection: await testConnection() });
  try {
    return await worker.runUntil(async () => {
      const seen: boolean[] = [];
      for (const id of ['a', 'b']) seen.push(await client.workflow.execute('agentCodeIsSharedWorkflow', { taskQueue, workflowId: `${taskQueue}-${id}` }));
      return seen;
    });
  } finally {
    await connection.close();
  }
}

describe('the agent workflow code in a worker', () => {
  jest.setTimeout(120_000);

  it('is loaded once and shared by every run (not evaluated again in each run’s first task)', async () => {
    expect(await probe(agentBundleOptions())).toEqual([true, true]);
  });

  it('is each run’s own copy when the bundle does not preload it, which the probe tells apart', async () => {
    expect(await probe({ ...agentBundleOptions(), preloadModules: [] })).toEqual([false, false]);
  });
});
