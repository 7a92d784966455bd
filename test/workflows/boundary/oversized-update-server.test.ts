import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../../../scripts/dev-server.cjs';
import { AgentClient } from '../../../src/client/agent-client';
import type { AgentRun } from '../../../src/client/agent-run';
import { startScriptedModelServer } from '../../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../../src/testing/scripted-model-types';
import { startDedicatedDevServer, startWorkerAt, temporalCliPath, type DedicatedDevServer } from '../../helpers/dedicated-dev-server';
import { uniqueTaskQueue } from '../../helpers/temporal-env';
import { waitFor, waitForPending } from '../../helpers/wait-for';
import { workflowTaskFailures } from '../../helpers/workflow-task-failures';
import { boundaryAgent, PARKED_BATCH } from './boundary-agent';

/*
 * What Temporal Server 1.32 does with an update over its 2 MiB blob limit from a sender that checks
 * no sizes: Temporal's own client, the Web UI, the Temporal CLI. The project's client and CLI
 * refuse such an update before sending it (hostile-inputs.test.ts).
 */

const exec = promisify(execFile);
const MiB = 1024 * 1024;
const IN_FLIGHT_SETTING = 'history.maxInFlightUpdatePayloads=';
const LIMIT_NAMED = 'limit on total payload size of in-flight updates has been reached (2031616 bytes)';

const cliPath = temporalCliPath();
if (!cliPath) console.log('oversized-update-server tests skipped: TEMPORAL_TEST_CLI is unset, so no dedicated dev server can be started');
const serverTest = cliPath ? test : test.skip;

interface Parked {
  server: DedicatedDevServer;
  connection: Connection;
  run: AgentRun;
  refund: string;
  ship: string;
  stop(): Promise<void>;
}

/** A dedicated server with these settings, a worker of the boundary agent and a run parked on its three calls. */
async function parkedRun(options: Parameters<typeof startDedicatedDevServer>[1]): Promise<Parked> {
  const server = await startDedicatedDevServer(cliPath!, options);
  let model: ScriptedModelServer | undefined;
  let worker: { stop(): Promise<void> } | undefined;
  let connection: Connection | undefined;
  const stop = async () => {
    await connection?.close();
    await worker?.stop();
    await model?.close();
    await server.dispose();
  };
  try {
    model = await startScriptedModelServer({ script: (_req, info) => (info.turnIndex === 0 ? { toolCalls: PARKED_BATCH } : 'done') });
    const taskQueue = uniqueTaskQueue('oversized');
    worker = await startWorkerAt(server.address, [boundaryAgent], taskQueue, model.baseURL);
    connection = await Connection.connect({ address: server.address });
    const client = await AgentClient.connect({ connection, taskQueue });
    const run = await client.start('boundary', { prompt: 'refund and ship' });
    const { pending } = await waitForPending(run, 3);
    return {
      server,
      connection,
      run,
      refund: pending.find((p) => p.tool === 'refund')!.callId,
      ship: pending.find((p) => p.tool === 'ship_parcel')!.callId,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The server's log lines about this workflow. */
function serverLogOf(server: DedicatedDevServer, workflowId: string): string[] {
  return readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes(`wf-id=${workflowId}`));
}

/** What Temporal's client (default retries, as any caller has them) throws for this update. */
async function rawUpdateError(connection: Connection, workflowId: string, payload: unknown): Promise<{ name: string; message: string; cause: string }> {
  try {
    await new Client({ connection }).workflow.getHandle(workflowId).executeUpdate('decide', { args: [payload] });
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: Error };
    return { name, message, cause: cause?.message ?? '' };
  }
  throw new Error('the oversized update was accepted');
}

async function stillParked(run: AgentRun, calls: number): Promise<void> {
  expect((await run.state()).pending).toHaveLength(calls);
  expect(await workflowTaskFailures(run)).toEqual([]);
  const events = (await run.handle.fetchHistory()).events ?? [];
  expect(events.filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes || event.workflowExecutionUpdateCompletedEventAttributes)).toEqual([]);
}

describe('an update over 2 MiB from a sender that checks no sizes (Temporal Server 1.32)', () => {
  serverTest(
    "without history.maxInFlightUpdatePayloads: the worker's refusal echoes the request, the server panics on it and the caller gets FAILED_PRECONDITION",
    async () => {
      const parked = await parkedRun({ dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG.filter((setting) => !setting.startsWith(IN_FLIGHT_SETTING)) });
      try {
        const { run, refund, connection, server } = parked;
        const error = await rawUpdateError(connection, run.workflowId, { callId: refund, approved: true, reason: 'x'.repeat(3 * MiB) });
        expect(error).toEqual({
          name: 'ServiceError',
          message: 'Workflow Update failed',
          cause: '9 FAILED_PRECONDITION: Unable to perform workflow execution update due to unexpected workflow task failure.',
        });
        const log = await waitFor(async () => {
          const lines = serverLogOf(server, run.workflowId);
          return lines.some((line) => line.includes('operation=RespondWorkflowTaskCompleted')) ? lines.join('\n') : undefined;
        }, 'the server to log the failed completion');
        expect(log).toMatch(/msg="Blob data size exceeds the warning limit\." .*wf-size=31\d{5} blob-size-violation-operation=temporal\.api\.update\.v1\.Rejection/);
        expect(log).toContain('level=ERROR msg="failed assertion: Cache encountered dirty mutable state transaction"');
        expect(log).toMatch(/level=ERROR msg="service failures" operation=RespondWorkflowTaskCompleted .*error="panic: Cache encountered dirty mutable state transaction"/);
        // The panic undoes the task's transaction: the run is left as it was and goes on.
        await stillParked(run, 3);
        await run.approve(refund);
        expect((await run.state()).pending).toHaveLength(2);
      } finally {
        await parked.stop();
      }
    },
    180_000,
  );

  serverTest(
    "with it (the project's settings): refused before it reaches the run, the limit named to Temporal's client and the Web UI; the Temporal CLI times out",
    async () => {
      const parked = await parkedRun({ ui: true });
      const dir = mkdtempSync(join(tmpdir(), 'durable-agent-oversized-'));
      // The senders still retrying when an expectation fails are awaited before the connection closes:
      // a retry that fired after it would throw in whichever test file ran next in this jest worker.
      const inFlight: Promise<unknown>[] = [];
      try {
        const { run, refund, ship, connection, server } = parked;
        const inputFile = join(dir, 'submit.json');
        writeFileSync(inputFile, JSON.stringify({ callId: ship, output: 'y'.repeat(3 * MiB) }));
        const temporalCli = exec(cliPath!, ['workflow', 'update', 'execute', '--address', server.address, '--workflow-id', run.workflowId, '--name', 'submitToolResultUpdate', '--input-file', inputFile]).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
        );
        const started = Date.now();
        const raw = rawUpdateError(connection, run.workflowId, { callId: refund, approved: true, reason: 'x'.repeat(3 * MiB) }).then((error) => ({
          ...error,
          seconds: (Date.now() - started) / 1000,
        }));
        inFlight.push(temporalCli, raw);

        // The Web UI's API (the UI server, which forwards to the same frontend call) answers at once.
        const ui = parked.server.uiUrl!;
        const settings = await waitFor(async () => {
          const response = await fetch(`${ui}/api/v1/settings`).catch(() => undefined);
          return response?.ok ? response : undefined;
        }, 'the Web UI to serve');
        const cookie = (settings.headers.get('set-cookie') ?? '').split(';')[0]!;
        const data = Buffer.from(JSON.stringify({ callId: refund, approved: true, reason: 'z'.repeat(3 * MiB) })).toString('base64');
        // 503: the UI server has not reached the frontend yet (it connects on its first call); asked again then.
        const response = await waitFor(async () => {
          const answer = await fetch(`${ui}/api/v1/namespaces/default/workflows/${run.workflowId}/update/decide`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': cookie.split('=')[1] ?? '' },
            body: JSON.stringify({
              workflowExecution: { workflowId: run.workflowId },
              request: { meta: { updateId: 'from-the-web-ui' }, input: { name: 'decide', args: { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data }] } } },
              waitPolicy: { lifecycleStage: 'UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED' },
            }),
          });
          return answer.status === 503 ? undefined : answer;
        }, "the Web UI's answer to the update");
        expect(response.status).toBe(429);
        expect(await response.json()).toMatchObject({ code: 8, message: LIMIT_NAMED });

        // Temporal's client retries RESOURCE_EXHAUSTED (10 attempts by default), then names the limit.
        const error = await raw;
        expect(error).toEqual({ name: 'ServiceError', message: 'Workflow Update failed', cause: `8 RESOURCE_EXHAUSTED: ${LIMIT_NAMED}`, seconds: expect.any(Number) });
        expect(error.seconds).toBeGreaterThan(20);
        // The Temporal CLI retries it until its update call times out (60 s); the limit shows only in the server's log.
        const cli = await temporalCli;
        expect(cli.code).not.toBe(0);
        // Which of the two the CLI prints depends on whether its deadline or its stream ends first.
        expect(cli.stderr).toMatch(/Error: unable to update workflow: Timeout or cancellation waiting for update: (context deadline exceeded|stream terminated by RST_STREAM with error code: CANCEL)/);

        const log = serverLogOf(server, run.workflowId);
        expect(log.some((line) => /level=WARN msg="update registry size limit reached" .*payload-size=31\d{5}/.test(line))).toBe(true);
        expect(readFileSync(server.logFile, 'utf8')).not.toMatch(/level=ERROR|panic/);
        await stillParked(run, 3);
      } finally {
        await Promise.allSettled(inFlight);
        rmSync(dir, { recursive: true, force: true });
        await parked.stop();
      }
    },
    180_000,
  );
});
