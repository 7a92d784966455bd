import { z } from 'zod';
import type { AgentRun } from '../../src/client/agent-run';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import type { VersioningBehaviorName } from '../../src/worker/deployment-options';
import { testAddress, testConnection, testNamespace, uniqueTaskQueue } from '../helpers/temporal-env';
import { startVersionedWorker } from '../helpers/versioned-worker';
import { waitFor, waitForPending } from '../helpers/wait-for';
import {
  activityWorkerIdentities,
  describeVersioning,
  drainageStatus,
  runningOnVersion,
  setCurrentVersion,
  workflowTaskBuildIds,
  type DeploymentTarget,
} from '../helpers/worker-deployment';

/** The same agent in every build; its tool says which build ran it. */
function releaseAgent(build: string) {
  const publish = defineTool({
    name: 'publish_release',
    description: 'Publish the release notes.',
    input: z.object({ version: z.string() }),
    execute: ({ version }) => `published ${version} by build ${build}`,
  });
  return defineAgent({ name: 'release', instructions: 'Publish when asked.', tools: [publish], permissions: { ask: ['publish_release'] } });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker deployment versioning on the dev server', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  let taskQueue: string;
  let deploymentName: string;
  const workers: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    model = await startScriptedModelServer({
      script: (_req, info) =>
        info.turnIndex === 0
          ? { toolCalls: [{ name: 'publish_release', arguments: { version: '2.0' } }] }
          : { text: `Done: ${info.toolResults.map((r) => r.content).join(' | ')}` },
    });
  });
  afterAll(async () => {
    await model?.close();
  });
  beforeEach(async () => {
    taskQueue = uniqueTaskQueue('versioning');
    deploymentName = `agents-${taskQueue.replace(/\./g, '-')}`;
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });

  async function startBuild(buildId: string, behavior: VersioningBehaviorName) {
    const worker = await startVersionedWorker({
      agents: [releaseAgent(buildId)],
      taskQueue,
      modelBaseURL: model.baseURL,
      deployment: { version: { deploymentName, buildId }, useWorkerVersioning: true, defaultVersioningBehavior: behavior },
      identity: `build-${buildId}`,
    });
    workers.push(worker);
    return worker;
  }

  const version = (buildId: string): DeploymentTarget => ({ address: testAddress(), namespace: testNamespace(), deploymentName, buildId });

  async function makeCurrent(buildId: string) {
    await setCurrentVersion(await testConnection(), version(buildId));
  }

  async function startParkedRun(): Promise<{ run: AgentRun; callId: string }> {
    const run = await client.start('release', { prompt: 'Publish 2.0' });
    const state = await waitForPending(run, 1);
    return { run, callId: state.pending[0]!.callId };
  }

  test('a new deployment takes no runs until a version is made current', async () => {
    await startBuild('A', 'PINNED');
    const run = await client.start('release', { prompt: 'Publish 2.0' });
    await sleep(3000);
    expect(workflowTaskBuildIds(await run.handle.fetchHistory())).toEqual([]);
    await makeCurrent('A');
    await waitForPending(run, 1);
    expect(await describeVersioning(run.handle)).toEqual({ behavior: 'PINNED', deploymentName, buildId: 'A' });
    await run.cancel();
  });

  test('pinned: a run parked on build A finishes on A after B becomes current; it waits while A is down; new runs go to B', async () => {
    const buildA = await startBuild('A', 'PINNED');
    await makeCurrent('A');
    const { run, callId } = await startParkedRun();
    expect(await describeVersioning(run.handle)).toEqual({ behavior: 'PINNED', deploymentName, buildId: 'A' });

    await startBuild('B', 'PINNED');
    await makeCurrent('B');
    // A drains: the server says so, and the visibility query of docs/production.md finds the run pinned there.
    await waitFor(async () => ((await drainageStatus(await testConnection(), version('A'))) === 'draining' ? true : undefined), 'A draining');
    await waitFor(async () => ((await runningOnVersion(await testConnection(), version('A'))) === 1 ? true : undefined), 'the run listed on A');

    // With A gone, B does not take the pinned run: the approval waits for a worker of A.
    await buildA.stop();
    const tasksBefore = workflowTaskBuildIds(await run.handle.fetchHistory()).length;
    const approved = run.approve(callId);
    await sleep(4000);
    expect(workflowTaskBuildIds(await run.handle.fetchHistory())).toHaveLength(tasksBefore);
    expect((await run.handle.describe()).status.name).toBe('RUNNING');

    // A new run goes to B, the current version.
    const second = await startParkedRun();
    expect(await describeVersioning(second.run.handle)).toEqual({ behavior: 'PINNED', deploymentName, buildId: 'B' });

    // A comes back (same build id): the pinned run takes the approval there and finishes on A.
    await startBuild('A', 'PINNED');
    await expect(approved).resolves.toMatchObject({ callId, approved: true });
    const result = await run.result();
    expect(result.output).toBe('Done: published 2.0 by build A');
    const history = await run.handle.fetchHistory();
    expect(new Set(workflowTaskBuildIds(history))).toEqual(new Set(['A']));
    expect(new Set(activityWorkerIdentities(history))).toEqual(new Set(['build-A']));
    expect(await describeVersioning(run.handle)).toEqual({ behavior: 'PINNED', deploymentName, buildId: 'A' });

    await second.run.approve(second.callId);
    expect((await second.run.result()).output).toBe('Done: published 2.0 by build B');
    const secondHistory = await second.run.handle.fetchHistory();
    expect(new Set(workflowTaskBuildIds(secondHistory))).toEqual(new Set(['B']));
    expect(new Set(activityWorkerIdentities(secondHistory))).toEqual(new Set(['build-B']));
  });

  test('auto-upgrade: a run parked on build A moves to B once B is current, and B runs the rest', async () => {
    await startBuild('A', 'AUTO_UPGRADE');
    await makeCurrent('A');
    const { run, callId } = await startParkedRun();
    expect(await describeVersioning(run.handle)).toEqual({ behavior: 'AUTO_UPGRADE', deploymentName, buildId: 'A' });
    const tasksOnA = workflowTaskBuildIds(await run.handle.fetchHistory()).length;

    await startBuild('B', 'AUTO_UPGRADE');
    await makeCurrent('B');
    await run.approve(callId);
    const result = await run.result();
    expect(result.output).toBe('Done: published 2.0 by build B');

    const history = await run.handle.fetchHistory();
    const buildIds = workflowTaskBuildIds(history);
    expect(buildIds.length).toBeGreaterThan(tasksOnA);
    expect(buildIds.slice(0, tasksOnA)).toEqual(Array(tasksOnA).fill('A'));
    expect(buildIds.slice(tasksOnA)).toEqual(Array(buildIds.length - tasksOnA).fill('B'));
    const identities = activityWorkerIdentities(history);
    // The model call before the approval ran on A; the tool and the final model call on B.
    expect(identities[0]).toBe('build-A');
    expect(identities.slice(-2)).toEqual(['build-B', 'build-B']);
    expect(await describeVersioning(run.handle)).toEqual({ behavior: 'AUTO_UPGRADE', deploymentName, buildId: 'B' });
  });
});
