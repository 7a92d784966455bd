import { webUiUrlFor } from '../../src/client/client-config';
import { argumentsDigest } from '../../src/common/arguments-digest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentRunResult, ApprovalDecision, SubmittedResult } from '../../src/common/run';
import type { WaitingCall } from '../../src/common/contracts/published-waits';
import type { ScriptedToolCall } from '../../src/testing/scripted-model-types';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { refundsIssued } from '../fixtures/approval-tools';
import { cliShop, cliShopScript, promptFor } from '../fixtures/cli-shop';
import { cliArgsOf, runCliCaptured } from '../helpers/cli-capture';
import { startDedicatedDevServer, startWorkerAt, temporalCliPath, type DedicatedDevServer } from '../helpers/dedicated-dev-server';
import { uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';

const ROOT = resolve(__dirname, '..', '..');
const run = promisify(execFile);

// `pending` without an id lists every waiting run of the namespace, so this file has a server of its own.
const cliPath = temporalCliPath();
if (!cliPath) console.log('CLI tests skipped: TEMPORAL_TEST_CLI is unset, so no dedicated dev server can be started');
const cliTest = cliPath ? test : test.skip;

const ENV_KEYS = ['TEMPORAL_ADDRESS', 'TEMPORAL_TASK_QUEUE', 'TEMPORAL_NAMESPACE'] as const;

function refund(orderId: string, amount: number): ScriptedToolCall {
  return { name: 'refund', arguments: { order_id: orderId, amount } };
}

function refundsOf(orderId: string) {
  return refundsIssued.filter((r) => r.orderId === orderId);
}

async function start(calls: ScriptedToolCall[]): Promise<string> {
  const { code, out } = await runCliCaptured(['start', '--agent', 'cli-shop', '--prompt', promptFor(calls), '--json']);
  expect(code).toBe(0);
  return (JSON.parse(out[0]) as { workflowId: string }).workflowId;
}

function waitForPendingCalls(id: string, count = 1): Promise<WaitingCall[]> {
  return waitFor(async () => {
    const { code, out } = await runCliCaptured(['pending', id, '--json']);
    if (code !== 0) return undefined;
    const { calls } = JSON.parse(out[0]) as { calls: WaitingCall[] };
    return calls.length >= count ? calls : undefined;
  }, `${count} waiting call(s) of ${id}`);
}

async function resultOf(id: string): Promise<AgentRunResult> {
  const { code, out } = await runCliCaptured(['result', id, '--json']);
  expect(code).toBe(0);
  return JSON.parse(out[0]) as AgentRunResult;
}

/** The text `pending` prints once it lists `id`. */
function waitForPendingListing(id: string): Promise<string[]> {
  return waitFor(async () => {
    const { code, out } = await runCliCaptured(['pending']);
    return code === 0 && out.some((line) => line.startsWith(`${id}  `)) ? out : undefined;
  }, `pending to list ${id}`);
}

describe('durable-agent CLI: pending, approve, deny, submit', () => {
  let server: DedicatedDevServer | undefined;
  let model: ScriptedModelServer | undefined;
  let worker: { stop(): Promise<void> } | undefined;
  let client: AgentClient | undefined;
  const savedEnv: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};

  beforeAll(async () => {
    if (!cliPath) return;
    server = await startDedicatedDevServer(cliPath);
    model = await startScriptedModelServer({ script: cliShopScript });
    const taskQueue = uniqueTaskQueue('cli');
    worker = await startWorkerAt(server.address, [cliShop], taskQueue, model.baseURL);
    for (const key of ENV_KEYS) savedEnv[key] = process.env[key];
    process.env.TEMPORAL_ADDRESS = server.address;
    process.env.TEMPORAL_TASK_QUEUE = taskQueue;
    delete process.env.TEMPORAL_NAMESPACE;
    client = await AgentClient.connect();
  }, 120_000);

  afterAll(async () => {
    for (const key of ENV_KEYS) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
    await client?.close();
    await worker?.stop();
    await model?.close();
    await server?.dispose();
  });

  cliTest('pending lists the waiting call with its id, tool, arguments and commands; approve --input runs the edited call', async () => {
    const id = await start([refund('P1', 70)]);
    const [call] = await waitForPendingCalls(id);
    const lines = await waitForPendingListing(id);
    const at = lines.indexOf(`${id}  approval  ${call.callId}  refund {"order_id":"P1","amount":70}`);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^ {4}why: .*\(--remember allows 'refund'\)$/);
    expect(lines[at + 2]).toBe(`    approve: durable-agent approve ${id} ${call.callId}`);
    expect(lines[at + 3]).toBe(`    deny:    durable-agent deny ${id} ${call.callId} --reason "..."`);
    expect(lines[at + 4]).toBe(`    Web UI:  Send Signal 'approve' with {"callId":"${call.callId}"} (or 'deny' with {"callId":"${call.callId}","reason":"..."})`);
    expect(lines).toContain(
      `Runs waiting in the Web UI: ${webUiUrlFor(server!.address)}/namespaces/default/workflows?query=${encodeURIComponent('AgentStatus="awaiting_approval" OR AgentStatus="awaiting_external"')}`,
    );

    const listed = await runCliCaptured(['pending', '--json']);
    expect(listed.code).toBe(0);
    // Read from the run's published memo: no state query, the arguments whole while they are small.
    expect((JSON.parse(listed.out[0]) as { calls: WaitingCall[] }).calls).toEqual(
      expect.arrayContaining([
        {
          workflowId: id,
          agent: 'cli-shop',
          callId: call.callId,
          tool: 'refund',
          kind: 'approval',
          since: call.since,
          reason: expect.any(String),
          suggestedRule: 'refund',
          input: { order_id: 'P1', amount: 70 },
          preview: '{"order_id":"P1","amount":70}',
          argumentsDigest: argumentsDigest({ order_id: 'P1', amount: 70 }),
          rulesVersion: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ]),
    );

    const approved = await runCliCaptured(['approve', id, call.callId, '--input', '{"order_id":"P1","amount":35}', '--json']);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.out[0]) as ApprovalDecision).toMatchObject({
      callId: call.callId,
      approved: true,
      input: { order_id: 'P1', amount: 35 },
    });
    expect((await resultOf(id)).output).toBe('Results: refunded 35 on P1');
    expect(refundsOf('P1')).toEqual([{ orderId: 'P1', amount: 35 }]);
    expect(await runCliCaptured(['pending', id])).toMatchObject({ code: 0, out: ['Nothing is waiting.'] });
  });

  cliTest('deny --reason: the model is told why', async () => {
    const id = await start([refund('P2', 30)]);
    const [call] = await waitForPendingCalls(id);
    const denied = await runCliCaptured(['deny', id, call.callId, '--reason', 'order is too old', '--as', 'alice@example.com']);
    expect(denied).toMatchObject({ code: 0, out: [`Denied ${call.callId}.`] });
    expect((await resultOf(id)).output).toBe('Results: Permission denied by user: order is too old');
    expect(refundsOf('P2')).toEqual([]);
    expect((await client!.get(id).eventsAfter(0)).filter((e) => e.type === 'permission_decided')).toEqual([expect.objectContaining({ callId: call.callId, behavior: 'deny', answeredBy: 'alice@example.com' })]);
  });

  cliTest('approve --digest/--rules-version: an answer for other arguments or rules is refused with the reason; the ones pending showed are taken', async () => {
    const id = await start([refund('P2b', 9)]);
    const [call] = await waitForPendingCalls(id);
    expect(call.argumentsDigest).toBe(argumentsDigest({ order_id: 'P2b', amount: 9 }));
    const listing = await waitForPendingListing(id);
    expect(listing).toContain(`    bound:   --digest ${call.argumentsDigest} --rules-version ${call.rulesVersion} (add to approve or deny: refused if the arguments or the rules changed since)`);

    const staleArguments = await runCliCaptured(['approve', id, call.callId, '--digest', argumentsDigest({ order_id: 'P2b', amount: 900 }), '--rules-version', call.rulesVersion!]);
    expect(staleArguments.code).not.toBe(0);
    expect(staleArguments.err.join('\n')).toContain('other arguments');
    const staleRules = await runCliCaptured(['deny', id, call.callId, '--digest', call.argumentsDigest!, '--rules-version', 'f'.repeat(64)]);
    expect(staleRules.code).not.toBe(0);
    expect(staleRules.err.join('\n')).toContain('other rules');
    expect(await waitForPendingCalls(id)).toEqual([expect.objectContaining({ callId: call.callId })]);

    const approved = await runCliCaptured(['approve', id, call.callId, '--digest', call.argumentsDigest!, '--rules-version', call.rulesVersion!]);
    expect(approved.code).toBe(0);
    expect((await resultOf(id)).output).toBe('Results: refunded 9 on P2b');
    expect(refundsOf('P2b')).toEqual([{ orderId: 'P2b', amount: 9 }]);
  });

  cliTest('delegate --to hands the call on: only the new approver may answer it then', async () => {
    const id = await start([refund('P2c', 4)]);
    const [call] = await waitForPendingCalls(id);
    const handed = await runCliCaptured(['delegate', id, call.callId, '--to', 'bob', '--as', 'alice', '--reason', 'on leave', '--json']);
    expect(handed.code).toBe(0);
    expect(JSON.parse(handed.out[0])).toMatchObject({ callId: call.callId, approvers: ['bob'], delegatedBy: 'alice' });
    const [listed] = await waitForPendingCalls(id);
    expect(listed.approvers).toEqual(['bob']);
    const notBob = await runCliCaptured(['approve', id, call.callId, '--as', 'carol']);
    expect(notBob.code).toBe(1);
    expect(notBob.err.join('\n')).toContain('carol');
    expect(refundsOf('P2c')).toEqual([]);
    expect((await runCliCaptured(['delegate', id, call.callId, '--as', 'bob'])).code).toBe(2);
    expect((await runCliCaptured(['approve', id, call.callId, '--as', 'bob'])).code).toBe(0);
    expect((await resultOf(id)).output).toBe('Results: refunded 4 on P2c');
    const events = await client!.get(id).eventsAfter(0);
    expect(events.find((e) => e.type === 'approval_delegated')).toMatchObject({ callId: call.callId, approvers: ['bob'], delegatedBy: 'alice', reason: 'on leave' });
  });

  cliTest('--as (or AGENT_ANSWERED_BY) names who approved or submitted, in the decision and the event; --as wins', async () => {
    const id = await start([refund('P2a', 3), { name: 'ship_parcel', arguments: { address: 'Ningbo' } }]);
    const [approval, external] = await waitForPendingCalls(id, 2);
    const saved = process.env.AGENT_ANSWERED_BY;
    process.env.AGENT_ANSWERED_BY = 'ops-team';
    try {
      const approved = await runCliCaptured(['approve', id, approval.callId, '--json']);
      expect(approved.code).toBe(0);
      expect(JSON.parse(approved.out[0]) as ApprovalDecision).toMatchObject({ callId: approval.callId, approved: true, answeredBy: 'ops-team' });
      const submitted = await runCliCaptured(['submit', id, external.callId, '--output', 'tracking NB7', '--as', 'bob']);
      expect(submitted.code).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.AGENT_ANSWERED_BY;
      else process.env.AGENT_ANSWERED_BY = saved;
    }
    await resultOf(id);
    const events = await client!.get(id).eventsAfter(0);
    expect(events.filter((e) => e.type === 'permission_decided')).toEqual([expect.objectContaining({ callId: approval.callId, by: 'user', answeredBy: 'ops-team' })]);
    expect(events.filter((e) => e.type === 'external_submitted')).toEqual([expect.objectContaining({ callId: external.callId, answeredBy: 'bob' })]);
  });

  cliTest('submit --output and --error answer external calls', async () => {
    const id = await start([
      { name: 'ship_parcel', arguments: { address: 'Hangzhou' } },
      { name: 'ship_parcel', arguments: { address: 'Atlantis' } },
    ]);
    const [first, second] = await waitForPendingCalls(id, 2);
    expect(first).toMatchObject({ kind: 'external', tool: 'ship_parcel', input: { address: 'Hangzhou' } });
    const submitted = await runCliCaptured(['submit', id, first.callId, '--output', 'tracking SF42', '--json']);
    expect(submitted.code).toBe(0);
    expect(JSON.parse(submitted.out[0]) as SubmittedResult).toMatchObject({ callId: first.callId, output: 'tracking SF42' });
    const failed = await runCliCaptured(['submit', id, second.callId, '--output', 'no such address', '--error']);
    expect(failed).toMatchObject({ code: 0, out: [`Submitted the result of ${second.callId}.`] });
    const result = await resultOf(id);
    expect(result.messages.filter((m) => m.role === 'tool')).toEqual([
      expect.objectContaining({ content: 'tracking SF42', state: 'success' }),
      expect.objectContaining({ content: 'no such address', state: 'error' }),
    ]);
  });

  cliTest('approve --all --remember approves every waiting call and keeps the rule for the run', async () => {
    const id = await start([refund('P4a', 1), refund('P4b', 2)]);
    await waitForPendingCalls(id, 2);
    const approved = await runCliCaptured(['approve', id, '--all', '--remember', '--json']);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.out[0])).toEqual({ workflowId: id, approvedAll: true });
    expect((await resultOf(id)).output).toBe('Results: refunded 1 on P4a | refunded 2 on P4b');
    expect((await client!.get(id).state()).sessionRules).toEqual(['refund']);
  });

  cliTest('usage errors exit 2 with the usage line; failed requests exit 1', async () => {
    const usageErrors: [string[], RegExp][] = [
      [[], /Usage: durable-agent <command>/],
      [['frobnicate'], /Unknown command 'frobnicate'/],
      [['approve'], /missing run id/],
      [['approve', 'some-run'], /missing call id \(or --all\)/],
      [['approve', 'some-run', 'call_0_0', '--all'], /give either CALL_ID or --all/],
      [['approve', 'some-run', 'call_0_0', '--input', '{not json'], /--input is not valid JSON/],
      [['approve', 'some-run', '--all', '--as', 'alice'], /--as is not recorded by --all/],
      [['deny', 'some-run', 'call_0_0', '--as', ' '], /--as needs a name/],
      [['deny', 'some-run'], /missing call id/],
      [['submit', 'some-run', 'call_0_0'], /--output is required/],
      [['submit', 'some-run', 'call_0_0', '--output'], /argument missing/],
      [['pending', '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [argv, message] of usageErrors) {
      const outcome = await runCliCaptured(argv);
      expect({ argv, code: outcome.code }).toEqual({ argv, code: 2 });
      const text = [...outcome.err, ...outcome.out].join('\n');
      expect(text).toMatch(message);
      expect(text).toMatch(/Usage: durable-agent/);
    }
    const missing = await runCliCaptured(['approve', 'no-such-run', 'call_0_0']);
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toMatch(/^Error: /);
  });

  cliTest('the approve command watch prints and the deny command pending prints work as printed', async () => {
    const watched = await start([refund('P6', 6)]);
    let printed: (command: string) => void = () => undefined;
    const approveLine = new Promise<string>((resolve) => (printed = resolve));
    const watching = runCliCaptured(['watch', watched], (line) => {
      if (line.includes('approve: ')) printed(line.slice(line.indexOf('approve: ') + 'approve: '.length));
    });
    const approveCommand = await approveLine;
    expect(approveCommand).toMatch(/^durable-agent approve /);
    expect(await runCliCaptured(cliArgsOf(approveCommand))).toMatchObject({ code: 0 });
    const watch = await watching;
    expect(watch.code).toBe(0);
    expect(watch.out.some((line) => line.includes('■ completed: Results: refunded 6 on P6'))).toBe(true);

    const listed = await start([refund('P7', 7)]);
    const lines = await waitForPendingListing(listed);
    const denyCommand = lines.find((line) => line.startsWith('    deny:') && line.includes(`deny ${listed} `))!.replace(/^ +deny: +/, '');
    expect(cliArgsOf(denyCommand)).toEqual(['deny', listed, expect.any(String), '--reason', '...']);
    expect(await runCliCaptured(cliArgsOf(denyCommand))).toMatchObject({ code: 0 });
    expect((await resultOf(listed)).output).toBe('Results: Permission denied by user: ...');
  });

  cliTest('printed commands run in a shell: `npm run -s agent -- approve` from pending run by npm, `durable-agent approve` from the Web UI details', async () => {
    const listed = await start([refund('P8', 8)]);
    await waitForPendingListing(listed);
    // Started through `npm run agent`, the CLI prints commands that go the same way.
    const viaNpm = await run('npm', ['run', '-s', 'agent', '--', 'pending', listed], { cwd: ROOT, env: process.env });
    const approveCommand = viaNpm.stdout.split('\n').find((line) => line.includes(`approve ${listed} `))!.replace(/^ +approve: +/, '');
    expect(approveCommand).toMatch(/^npm run -s agent -- approve /);
    const shell = await run('sh', ['-c', approveCommand], { cwd: ROOT, env: process.env });
    expect(shell.stdout).toMatch(/Approved call_/);
    expect((await resultOf(listed)).output).toBe('Results: refunded 8 on P8');

    // The run's "current details" in the Web UI name the installed binary (npm link / npm i -g).
    const detailed = await start([refund('P9', 9)]);
    await waitForPendingCalls(detailed);
    const metadata = await client!.get(detailed).handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    const uiCommand = /^(durable-agent approve .+)$/m.exec(metadata.currentDetails ?? '')?.[1];
    expect(uiCommand).toBeDefined();
    const binDir = mkdtempSync(join(tmpdir(), 'durable-agent-bin-'));
    try {
      symlinkSync(join(ROOT, 'bin', 'durable-agent.cjs'), join(binDir, 'durable-agent'));
      const installed = await run('sh', ['-c', uiCommand!], {
        cwd: ROOT,
        env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` },
      });
      expect(installed.stdout).toMatch(/Approved call_/);
    } finally {
      rmSync(binDir, { recursive: true, force: true });
    }
    expect((await resultOf(detailed)).output).toBe('Results: refunded 9 on P9');
  }, 120_000);
});
