import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster } from '../../../scripts/cluster/cluster.cjs';
import { bundleAgentWorkflows } from '../../../src/worker/bundle-workflows';
import { TEST_ENV } from '../../helpers/temporal-env';
import { CLUSTER_DIR_ENV } from './cluster-env';
import globalTeardown from './global-teardown';

// Its own ports (frontend 27233, PostgreSQL 25432), so a cluster of `npm run cluster` may run beside it.
const TEST_PORT_OFFSET = Number(process.env.TEMPORAL_CLUSTER_TEST_PORT_OFFSET ?? 20000);

const log = (message: string): void => {
  process.stderr.write(`[cluster-setup] ${message}\n`);
};

/**
 * The cluster tier's setup: a cluster of its own from `scripts/cluster` in a temporary folder
 * (or the one TEMPORAL_ADDRESS names, with TEMPORAL_CLUSTER_DIR for the tests that kill its
 * processes), the workflow bundle, and the variables test/helpers read.
 */
export default async function clusterGlobalSetup(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'durable-agent-cluster-test-'));
  // PostgreSQL's own user (not root) must be able to enter the cluster's folder inside it.
  chmodSync(stateDir, 0o755);
  process.env[TEST_ENV.stateDir] = stateDir;
  try {
    const external = process.env.TEMPORAL_ADDRESS;
    if (external) {
      log(`TEMPORAL_ADDRESS=${external}: using that cluster${process.env.TEMPORAL_CLUSTER_DIR ? '' : '; no TEMPORAL_CLUSTER_DIR, so the tests that kill its processes are skipped'}`);
      process.env[TEST_ENV.address] = external;
      if (process.env.TEMPORAL_CLUSTER_DIR) process.env[CLUSTER_DIR_ENV] = process.env.TEMPORAL_CLUSTER_DIR;
    } else {
      const dir = join(stateDir, 'cluster');
      const started = Date.now();
      const state = await startCluster({ dir, offset: TEST_PORT_OFFSET, log });
      log(`cluster up at ${state.address} in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})`);
      process.env[TEST_ENV.address] = state.address;
      process.env[CLUSTER_DIR_ENV] = dir;
    }
    process.env[TEST_ENV.namespace] = process.env.TEMPORAL_NAMESPACE || 'default';
    const bundle = await bundleAgentWorkflows({ outFile: join(stateDir, 'workflow-bundle.js') });
    process.env[TEST_ENV.workflowBundle] = bundle.codePath;
  } catch (error) {
    await globalTeardown();
    throw error;
  }
}
