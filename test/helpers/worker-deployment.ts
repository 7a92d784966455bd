import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, type Connection } from '@temporalio/client';
import { decodeVersioningBehavior, type VersioningBehavior } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { findTemporalCli } from '../../scripts/temporal-cli.cjs';
import { waitFor } from './wait-for';

type History = temporal.api.history.v1.IHistory;

const run = promisify(execFile);

export interface DeploymentTarget {
  address: string;
  namespace: string;
  deploymentName: string;
  buildId: string;
}

/**
 * Makes a build the current version of its deployment with the command docs/production.md documents
 * (`temporal worker deployment set-current-version`), or through the API when no CLI is at hand.
 * Retried: the server learns of a version from its workers' polls, a moment after they start.
 */
export async function setCurrentVersion(connection: Connection, target: DeploymentTarget): Promise<void> {
  const cli = findTemporalCli({ root: resolve(__dirname, '..', '..'), install: false });
  let lastError = '';
  await waitFor(
    async () => {
      try {
        if (cli) {
          await run(cli, [
            'worker', 'deployment', 'set-current-version',
            '--address', target.address, '--namespace', target.namespace,
            '--deployment-name', target.deploymentName, '--build-id', target.buildId,
            '--yes', '--disable-config-file', '--disable-config-env',
          ], { timeout: 15_000 });
        } else {
          await connection.workflowService.setWorkerDeploymentCurrentVersion({
            namespace: target.namespace,
            deploymentName: target.deploymentName,
            buildId: target.buildId,
            identity: 'worker-versioning-test',
          });
        }
        return true;
      } catch (error) {
        lastError = String((error as { stderr?: string }).stderr || (error as Error).message).trim();
        return undefined;
      }
    },
    `${target.deploymentName}.${target.buildId} to become the current version (last error: ${lastError})`,
    30_000,
  );
  await waitForRoutingPropagated(connection, target);
}

/**
 * The server answers before every task queue partition knows the new current version; until then
 * tasks may still go to the old one. `temporal worker deployment describe` shows the same state.
 */
async function waitForRoutingPropagated(connection: Connection, target: DeploymentTarget): Promise<void> {
  const COMPLETED = 2; // temporal.api.enums.v1.RoutingConfigUpdateState.ROUTING_CONFIG_UPDATE_STATE_COMPLETED
  await waitFor(
    async () => {
      const { workerDeploymentInfo: info } = await connection.workflowService.describeWorkerDeployment({
        namespace: target.namespace,
        deploymentName: target.deploymentName,
      });
      const current = info?.routingConfig?.currentDeploymentVersion?.buildId;
      return current === target.buildId && info?.routingConfigUpdateState === COMPLETED ? true : undefined;
    },
    `the routing of ${target.deploymentName} to reach every task queue`,
    30_000,
  );
}

/** The build id that completed each workflow task, in history order ('-' for an unversioned worker). */
export function workflowTaskBuildIds(history: History): string[] {
  return (history.events ?? []).flatMap((event) => {
    const completed = event.workflowTaskCompletedEventAttributes;
    return completed ? [completed.deploymentVersion?.buildId || '-'] : [];
  });
}

/** The identity of the worker that ran each (non-local) activity attempt, in history order. */
export function activityWorkerIdentities(history: History): string[] {
  return (history.events ?? []).flatMap((event) => {
    const started = event.activityTaskStartedEventAttributes;
    return started ? [started.identity ?? ''] : [];
  });
}

export interface RunVersioning {
  behavior: VersioningBehavior | undefined;
  deploymentName: string | undefined;
  buildId: string | undefined;
}

/** The run's versioning as the server describes it: behaviour and the version of its last workflow task. */
export async function describeVersioning(handle: { describe(): Promise<{ raw: temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse }> }): Promise<RunVersioning> {
  const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  return {
    behavior: decodeVersioningBehavior(info?.behavior),
    deploymentName: info?.deploymentVersion?.deploymentName ?? undefined,
    buildId: info?.deploymentVersion?.buildId ?? undefined,
  };
}

/** A version's drainage status as `temporal worker deployment describe-version` shows it. */
export async function drainageStatus(connection: Connection, target: DeploymentTarget): Promise<'unspecified' | 'draining' | 'drained'> {
  const { workerDeploymentVersionInfo: info } = await connection.workflowService.describeWorkerDeploymentVersion({
    namespace: target.namespace,
    deploymentVersion: { deploymentName: target.deploymentName, buildId: target.buildId },
  });
  return (['unspecified', 'draining', 'drained'] as const)[info?.drainageInfo?.status ?? 0] ?? 'unspecified';
}

/** The open runs pinned to a version, through the query docs/production.md gives for draining. */
export async function runningOnVersion(connection: Connection, target: DeploymentTarget): Promise<number> {
  const query = `TemporalWorkerDeploymentVersion='${target.deploymentName}:${target.buildId}' AND ExecutionStatus='Running'`;
  const { count } = await new Client({ connection, namespace: target.namespace }).workflow.count(query);
  return count;
}
