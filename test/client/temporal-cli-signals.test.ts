import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../src/common/events';
import type { AgentRunState } from '../../src/common/run';
import type { ScriptedToolCall } from '../../src/testing/scripted-model-types';
import { refundsIssued } from '../fixtures/approval-tools';
import { cliShop, cliShopScript, promptFor } from '../fixtures/cli-shop';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { temporalCliPath } from '../helpers/dedicated-dev-server';
import { testAddress, testNamespace } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';

const DOCS = join(__dirname, '..', '..', 'docs', 'signals.md');

/** Every payload docs/signals.md shows, as `temporal workflow ... --input` takes it; CALL_ID is replaced. */
const FORMS = {
  approve: '{"callId":"CALL_ID"}',
  approveEdited: '{"callId":"CALL_ID","input":{"order_id":"T2","amount":5}}',
  approveRemember: '{"callId":"CALL_ID","remember":"session"}',
  deny: '{"callId":"CALL_ID","reason":"not today"}',
  approveAll: '{}',
  approveAllRemember: '{"remember":"session"}',
  submit: '{"callId":"CALL_ID","output":"tracking SF42"}',
  submitError: '{"callId":"CALL_ID","output":"no such address","isError":true}',
  activate: '{"activate":["extras"]}',
  deactivate: '{"deactivate":["extras"]}',
  decideApprove: '{"callId":"CALL_ID","approved":true}',
  decideDeny: '{"callId":"CALL_ID","approved":false,"reason":"not today"}',
  decideEdited: '{"callId":"CALL_ID","approved":true,"input":{"order_id":"T2","amount":5}}',
  submitUpdate: '{"callId":"CALL_ID","output":"tracking SF42","isError":false}',
  addInput: '{"text":"and also check the invoice"}',
  afterSeq: '0',
  page: '{"from":0,"to":40,"maxBytes":1048576}',
} as const;

/** `name input` of every command the tests below run successfully. */
const VERIFIED = [
  `approve ${FORMS.approve}`,
  `approve ${FORMS.approveEdited}`,
  `approve ${FORMS.approveRemember}`,
  `deny ${FORMS.deny}`,
  `approveAll ${FORMS.approveAll}`,
  'approveAll',
  `approveAll ${FORMS.approveAllRemember}`,
  `submitToolResult ${FORMS.submit}`,
  `submitToolResult ${FORMS.submitError}`,
  `setGroups ${FORMS.activate}`,
  `setGroups ${FORMS.deactivate}`,
  `decide ${FORMS.decideApprove}`,
  `decide ${FORMS.decideDeny}`,
  `decide ${FORMS.decideEdited}`,
  `submitToolResultUpdate ${FORMS.submitUpdate}`,
  `addInput ${FORMS.addInput}`,
  'state',
  `events ${FORMS.afterSeq}`,
  `conversationPage ${FORMS.page}`,
];

const cliPath = temporalCliPath();
if (!cliPath) console.log('Temporal CLI payload tests skipped: TEMPORAL_TEST_CLI is unset');
const cliTest = cliPath ? test : test.skip;

interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `temporal workflow <args>` against the test server. */
function temporal(args: string[]): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(
      cliPath!,
      ['workflow', ...args, '--address', testAddress(), '--namespace', testNamespace()],
      { timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function fill(form: string, callId = ''): string {
  return form.replace('CALL_ID', callId);
}

async function signal(id: string, name: string, form?: string, callId?: string): Promise<void> {
  const outcome = await temporal(['signal', '--workflow-id', id, '--name', name, ...(form ? ['--input', fill(form, callId)] : [])]);
  expect(outcome).toMatchObject({ code: 0 });
}

async function update(id: string, name: string, form: string, callId: string): Promise<CliOutcome> {
  return temporal(['update', 'execute', '--workflow-id', id, '--name', name, '--input', fill(form, callId), '--output', 'json']);
}

async function query<T>(id: string, name: string, input?: string): Promise<T> {
  const outcome = await temporal(['query', '--workflow-id', id, '--name', name, ...(input ? ['--input', input] : []), '--output', 'json']);
  expect(outcome).toMatchObject({ code: 0 });
  return (JSON.parse(outcome.stdout) as { queryResult: T[] }).queryResult[0];
}

/** `--name NAME [--input 'JSON']` of every `temporal workflow` command in docs/signals.md. */
function documentedForms(): Set<string> {
  const forms = new Set<string>();
  for (const line of readFileSync(DOCS, 'utf8').split('\n')) {
    if (!line.startsWith('temporal workflow ')) continue;
    const match = /--name (\w+)(?: --input '([^']*)')?/.exec(line);
    if (match) forms.add(`${match[1]} ${match[2] ?? ''}`.trim());
  }
  return forms;
}

describe("the Temporal CLI's signal, update and query forms (docs/signals.md)", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    if (!cliPath) return;
    env = await startAgentTestEnv({ agents: [cliShop], script: cliShopScript });
  });
  afterAll(async () => env?.stop());

  async function waiting(calls: ScriptedToolCall[], count = calls.length) {
    const run = await env.client.start('cli-shop', { prompt: promptFor(calls) });
    const state = await waitForPending(run, count);
    return { run, id: run.workflowId, callIds: state.pending.map((p) => p.callId) };
  }
  const refund = (orderId: string, amount: number): ScriptedToolCall => ({ name: 'refund', arguments: { order_id: orderId, amount } });

  cliTest('`temporal workflow signal --name approve` with {"callId":…} (what the Web UI sends) approves the waiting call', async () => {
    const { run, id, callIds } = await waiting([refund('T1', 10)]);
    await signal(id, 'approve', FORMS.approve, callIds[0]);
    expect((await run.result()).output).toBe('Results: refunded 10 on T1');
    expect(refundsIssued.filter((r) => r.orderId === 'T1')).toEqual([{ orderId: 'T1', amount: 10 }]);
  });

  cliTest('approve with edited input, and with remember; deny with a reason', async () => {
    const edited = await waiting([refund('T2', 50)]);
    await signal(edited.id, 'approve', FORMS.approveEdited, edited.callIds[0]);
    expect((await edited.run.result()).output).toBe('Results: refunded 5 on T2');

    const remembered = await waiting([refund('T3', 3)]);
    await signal(remembered.id, 'approve', FORMS.approveRemember, remembered.callIds[0]);
    await remembered.run.result();
    expect((await query<AgentRunState>(remembered.id, 'state')).sessionRules).toEqual(['refund']);

    const denied = await waiting([refund('T4', 4)]);
    await signal(denied.id, 'deny', FORMS.deny, denied.callIds[0]);
    expect((await denied.run.result()).output).toBe('Results: Permission denied by user: not today');
  });

  cliTest('approveAll with {}, with no input, and with {"remember":"session"}', async () => {
    for (const form of [FORMS.approveAll, undefined, FORMS.approveAllRemember]) {
      const { run, id } = await waiting([refund('T5a', 1), refund('T5b', 2)]);
      await signal(id, 'approveAll', form);
      expect((await run.result()).output).toBe('Results: refunded 1 on T5a | refunded 2 on T5b');
      const rules = (await query<AgentRunState>(id, 'state')).sessionRules ?? [];
      expect(rules).toEqual(form === FORMS.approveAllRemember ? ['refund'] : []);
    }
  });

  cliTest('submitToolResult with an output, and with isError', async () => {
    const { run, id, callIds } = await waiting([
      { name: 'ship_parcel', arguments: { address: 'Hangzhou' } },
      { name: 'ship_parcel', arguments: { address: 'Atlantis' } },
    ]);
    await signal(id, 'submitToolResult', FORMS.submit, callIds[0]);
    await signal(id, 'submitToolResult', FORMS.submitError, callIds[1]);
    const tools = (await run.result()).messages.filter((m) => m.role === 'tool');
    expect(tools).toEqual([
      expect.objectContaining({ content: 'tracking SF42', state: 'success' }),
      expect.objectContaining({ content: 'no such address', state: 'error' }),
    ]);
  });

  cliTest('setGroups activates and deactivates; the state and events queries answer', async () => {
    const { run, id, callIds } = await waiting([refund('T6', 6)]);
    await signal(id, 'setGroups', FORMS.activate);
    expect((await query<AgentRunState>(id, 'state')).activeGroups).toEqual(['extras']);
    await signal(id, 'setGroups', FORMS.deactivate);
    const state = await query<AgentRunState>(id, 'state');
    // The Temporal CLI prints empty lists as null.
    expect(state.activeGroups ?? []).toEqual([]);
    expect(state).toMatchObject({ status: 'awaiting_approval', pending: [expect.objectContaining({ callId: callIds[0], tool: 'refund' })] });
    const events = await query<AgentEvent[]>(id, 'events', FORMS.afterSeq);
    expect(events.map((e) => e.type)).toContain('permission_requested');
    const page = await query<{ role: string }[]>(id, 'conversationPage', FORMS.page);
    expect(page.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    await signal(id, 'deny', FORMS.deny, callIds[0]);
    await run.result();
  });

  cliTest('the decide and submitToolResultUpdate updates answer with what was recorded, or fail with the reason', async () => {
    const approved = await waiting([refund('T7', 7)]);
    const wrong = await update(approved.id, 'decide', FORMS.decideApprove, 'no-such-call');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/no tool call 'no-such-call' is waiting for approval/);
    const decided = await update(approved.id, 'decide', FORMS.decideApprove, approved.callIds[0]);
    expect(decided.code).toBe(0);
    expect(decided.stdout).toContain(approved.callIds[0]);
    expect((await approved.run.result()).output).toBe('Results: refunded 7 on T7');

    const edited = await waiting([refund('T2', 60)]);
    expect((await update(edited.id, 'decide', FORMS.decideEdited, edited.callIds[0])).code).toBe(0);
    expect((await edited.run.result()).output).toBe('Results: refunded 5 on T2');

    const denied = await waiting([refund('T8', 8)]);
    expect((await update(denied.id, 'decide', FORMS.decideDeny, denied.callIds[0])).code).toBe(0);
    expect((await denied.run.result()).output).toBe('Results: Permission denied by user: not today');

    const shipped = await waiting([{ name: 'ship_parcel', arguments: { address: 'Hangzhou' } }]);
    const submitted = await update(shipped.id, 'submitToolResultUpdate', FORMS.submitUpdate, shipped.callIds[0]);
    expect(submitted.code).toBe(0);
    expect(submitted.stdout).toContain('tracking SF42');
    expect((await shipped.run.result()).output).toBe('Results: tracking SF42');
  });

  cliTest('the addInput update adds a message the next model call sees, once; a run that has ended refuses it', async () => {
    const { run, id, callIds } = await waiting([refund('T9', 9)]);
    const added = await update(id, 'addInput', FORMS.addInput, '');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('"delivery": "queued"');
    await signal(id, 'approve', FORMS.approve, callIds[0]);
    const result = await run.result();
    const texts = result.messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : ''}`);
    expect(texts.filter((text) => text === 'user:and also check the invoice')).toHaveLength(1);
    expect(texts.indexOf('user:and also check the invoice')).toBeGreaterThan(texts.findIndex((text) => text.startsWith('tool:')));
    const late = await update(id, 'addInput', FORMS.addInput, '');
    expect(late.code).not.toBe(0);
    expect(late.stderr).toMatch(/already completed/);
  });

  cliTest('a bare call id instead of the JSON object is ignored by the signal (the run keeps waiting)', async () => {
    const { run, id, callIds } = await waiting([refund('T9', 9)]);
    await signal(id, 'approve', JSON.stringify(callIds[0]));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await run.state()).pending.map((p) => p.callId)).toEqual(callIds);
    await signal(id, 'approve', FORMS.approve, callIds[0]);
    expect((await run.result()).output).toBe('Results: refunded 9 on T9');
  });

  test('docs/signals.md shows exactly the forms these tests send', () => {
    expect([...documentedForms()].sort()).toEqual([...VERIFIED].sort());
  });
});
