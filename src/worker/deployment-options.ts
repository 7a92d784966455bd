import type { WorkerOptions } from '@temporalio/worker';
import { WorkerConfigurationError } from './configuration-error';

/** Worker Deployment Versioning options, as createWorker({ deployment }) takes them. */
export type WorkerDeployment = NonNullable<WorkerOptions['workerDeploymentOptions']>;

export type VersioningBehaviorName = 'PINNED' | 'AUTO_UPGRADE';

export const DEFAULT_VERSIONING_BEHAVIOR: VersioningBehaviorName = 'PINNED';

function parseBehavior(value: string | undefined): VersioningBehaviorName {
  if (!value) return DEFAULT_VERSIONING_BEHAVIOR;
  const normalized = value.trim().toUpperCase().replace(/-/g, '_');
  if (normalized === 'PINNED' || normalized === 'AUTO_UPGRADE') return normalized;
  throw new WorkerConfigurationError(`AGENT_VERSIONING_BEHAVIOR=${value} is not a versioning behaviour: use pinned or auto_upgrade.`);
}

/**
 * The worker's deployment version from AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID (both or
 * neither), with AGENT_VERSIONING_BEHAVIOR (pinned, the default, or auto_upgrade). Undefined
 * when neither is set: the worker is unversioned.
 */
export function readDeploymentOptions(env: NodeJS.ProcessEnv = process.env): WorkerDeployment | undefined {
  const deploymentName = env.AGENT_DEPLOYMENT_NAME?.trim() || undefined;
  const buildId = env.AGENT_BUILD_ID?.trim() || undefined;
  const behavior = env.AGENT_VERSIONING_BEHAVIOR?.trim() || undefined;
  if (!deploymentName && !buildId) {
    if (behavior) {
      throw new WorkerConfigurationError('AGENT_VERSIONING_BEHAVIOR is set without AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID.');
    }
    return undefined;
  }
  if (!deploymentName || !buildId) {
    const missing = deploymentName ? 'AGENT_BUILD_ID' : 'AGENT_DEPLOYMENT_NAME';
    throw new WorkerConfigurationError(`Worker versioning needs AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID together: set ${missing} too.`);
  }
  // Temporal names a version `<deployment>.<build id>`, so the deployment name cannot hold a dot.
  if (deploymentName.includes('.')) {
    throw new WorkerConfigurationError(`AGENT_DEPLOYMENT_NAME=${deploymentName} contains '.', which Temporal does not allow in a deployment name.`);
  }
  return {
    version: { deploymentName, buildId },
    useWorkerVersioning: true,
    defaultVersioningBehavior: parseBehavior(behavior),
  };
}
