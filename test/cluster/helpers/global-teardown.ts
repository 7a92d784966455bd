import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve, sep } from 'node:path';
import { stopCluster } from '../../../scripts/cluster/cluster.cjs';
import { TEST_ENV } from '../../helpers/temporal-env';

/** Stops the tier's own cluster by its PIDs and removes its folder (kept with TEMPORAL_CLUSTER_KEEP=1, to read its logs). */
export default async function clusterGlobalTeardown(): Promise<void> {
  const stateDir = process.env[TEST_ENV.stateDir];
  if (!stateDir || !resolve(stateDir).startsWith(resolve(tmpdir()) + sep)) return;
  await stopCluster({ dir: resolve(stateDir, 'cluster') });
  if (process.env.TEMPORAL_CLUSTER_KEEP === '1') process.stderr.write(`[cluster-teardown] kept ${stateDir}\n`);
  else rmSync(stateDir, { recursive: true, force: true });
}
