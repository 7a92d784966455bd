import { WorkerConfigurationError } from '../../src/worker/configuration-error';
import { readDeploymentOptions } from '../../src/worker/deployment-options';

describe('readDeploymentOptions (AGENT_DEPLOYMENT_NAME, AGENT_BUILD_ID, AGENT_VERSIONING_BEHAVIOR)', () => {
  test('unset: an unversioned worker', () => {
    expect(readDeploymentOptions({})).toBeUndefined();
  });

  test('name and build id: a versioned worker, pinned by default', () => {
    expect(readDeploymentOptions({ AGENT_DEPLOYMENT_NAME: 'support-agents', AGENT_BUILD_ID: '2024-06-01.3' })).toEqual({
      version: { deploymentName: 'support-agents', buildId: '2024-06-01.3' },
      useWorkerVersioning: true,
      defaultVersioningBehavior: 'PINNED',
    });
  });

  test.each([
    ['auto_upgrade', 'AUTO_UPGRADE'],
    ['auto-upgrade', 'AUTO_UPGRADE'],
    ['AUTO_UPGRADE', 'AUTO_UPGRADE'],
    ['Pinned', 'PINNED'],
  ])('AGENT_VERSIONING_BEHAVIOR=%s is %s', (value, behavior) => {
    const options = readDeploymentOptions({ AGENT_DEPLOYMENT_NAME: 'd', AGENT_BUILD_ID: 'b', AGENT_VERSIONING_BEHAVIOR: value });
    expect(options?.defaultVersioningBehavior).toBe(behavior);
  });

  test.each([
    [{ AGENT_DEPLOYMENT_NAME: 'd' }, /set AGENT_BUILD_ID too/],
    [{ AGENT_BUILD_ID: 'b' }, /set AGENT_DEPLOYMENT_NAME too/],
    [{ AGENT_VERSIONING_BEHAVIOR: 'pinned' }, /without AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID/],
    [{ AGENT_DEPLOYMENT_NAME: 'd', AGENT_BUILD_ID: 'b', AGENT_VERSIONING_BEHAVIOR: 'sometimes' }, /use pinned or auto_upgrade/],
    [{ AGENT_DEPLOYMENT_NAME: 'my.agents', AGENT_BUILD_ID: 'b' }, /contains '\.'/],
  ])('%j is refused as a configuration error', (env, message) => {
    expect(() => readDeploymentOptions(env)).toThrow(WorkerConfigurationError);
    expect(() => readDeploymentOptions(env)).toThrow(message);
  });
});
