import { readFile } from 'node:fs/promises';
import { argumentsDigest } from '../../src/common/arguments-digest';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { ALICE, BOB, ERIN, BOT_TOKEN, CHANNEL, click, executed, INBOX_TOKEN, MALLORY, NOTICE_SECRET, postedMessage, postInteraction, SIGNING_SECRET, startSlackKit, updatesOf, type SlackKit } from './slack-kit';
import { clickPayload, slackSignature, submissionPayload } from './slack-signing';

const ARGS = { order_id: 'ORD-7', amount: 12 };

describe('two-way Slack: the buttons and the Edit modal answer runs; messages follow answers given elsewhere', () => {
  let kit: SlackKit;
  beforeAll(async () => {
    kit = await startSlackKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  async function waitingRun(agent = 'slack-refunds') {
    const run = await kit.client.start(agent, { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    const message = await postedMessage(kit.api, run.workflowId);
    expect(message.callId).toBe(pending[0]!.callId);
    return { run, callId: pending[0]!.callId, message };
  }

  const stillWaits = async (run: Awaited<ReturnType<typeof waitingRun>>['run'], callId: string) => (await run.state()).pending.some((call) => call.callId === callId);
  const decisionsOf = async (run: Awaited<ReturnType<typeof waitingRun>>['run']) => (await run.eventsAfter(0)).filter((event) => event.type === 'permission_decided' && event.by !== 'rules');

  test('Edit opens a modal made from the schema; an invalid edit is refused in the modal (ours, then the run\'s); a valid one approves as the mapped identity and the tool runs with it', async () => {
    const { run, callId, message } = await waitingRun();
    expect(message.channel).toBe(CHANNEL);
    const shown = JSON.stringify(message.call.args.blocks);
    expect(shown).toContain('ORD-7');
    expect(shown).toContain('durable_agent_approve');
    expect(shown).toContain('durable_agent_deny');
    expect(shown).toContain('durable_agent_edit');

    const opened = await click(kit, { user: ALICE, action: 'durable_agent_edit', workflowId: run.workflowId, callId, ts: message.ts });
    expect(opened.status).toBe(200);
    const modal = await waitFor(async () => kit.api.callsOf('views.open').find((call) => JSON.parse(call.args.view.private_metadata).w === run.workflowId), 'the Edit modal');
    const view = modal.args.view as Record<string, any>;
    const inputs = (view.blocks as Array<Record<string, any>>).filter((block) => block.type === 'input');
    expect(inputs.map((block) => block.block_id)).toEqual(['arg:order_id', 'arg:amount']);
    expect(inputs.map((block) => block.element.initial_value)).toEqual(['ORD-7', '12']);
    expect(inputs[0]!.hint.text).toBe('Order id');

    // Not a number: refused here, by the schema, in the amount's field.
    const notNumber = await postInteraction(kit, submissionPayload(ALICE, view, { 'arg:amount': 'twelve' }));
    expect(notNumber.status).toBe(200);
    expect(await notNumber.json()).toEqual({ response_action: 'errors', errors: { 'arg:amount': "'twelve' is not a number" } });
    // Over the schema's maximum: refused here too.
    const tooMuch = await postInteraction(kit, submissionPayload(ALICE, view, { 'arg:amount': '5000' }));
    expect(((await tooMuch.json()) as { errors: Record<string, string> }).errors['arg:amount']).toMatch(/1000/);
    // Fits the JSON Schema, but not the tool's own check: the run refuses it, and the modal says why.
    const runRefuses = await postInteraction(kit, submissionPayload(ALICE, view, { 'arg:order_id': 'XYZ-1', 'arg:amount': '5' }));
    const refusal = (await runRefuses.json()) as { response_action: string; errors: Record<string, string> };
    expect(refusal.response_action).toBe('errors');
    expect(refusal.errors['arg:order_id']).toMatch(/^an order id starts with ORD- \(The run refused the answer: Edited input rejected/);
    expect(await stillWaits(run, callId)).toBe(true);
    expect(executed).toEqual([]);

    const accepted = await postInteraction(kit, submissionPayload(ALICE, view, { 'arg:order_id': 'ORD-7', 'arg:amount': '5' }));
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe('');
    const result = await run.result();
    expect(result.output).toBe('Done: refunded 5 on ORD-7');
    expect(executed).toEqual([{ order_id: 'ORD-7', amount: 5 }]);
    expect(await decisionsOf(run)).toEqual([expect.objectContaining({ behavior: 'allow', by: 'user', answeredBy: 'alice@example.com', input: { order_id: 'ORD-7', amount: 5 } })]);

    const update = await waitFor(async () => updatesOf(kit.api, message.ts)[0], 'the message updated');
    expect(update.args.channel).toBe(CHANNEL);
    expect(update.args.text).toContain('Approved by alice@example.com (with edited arguments)');
    expect(JSON.stringify(update.args.blocks)).not.toContain('durable_agent_approve');

    // The digest of the arguments the message showed is kept with the message, in the state file.
    type Kept = { argumentsDigest: string; ts: string; answered?: { answeredBy: string } };
    const kept = await waitFor(async () => {
      const file = JSON.parse(await readFile(kit.config.stateFile, 'utf8')) as { messages: Record<string, Kept> };
      const entry = Object.values(file.messages).find((one) => one.ts === message.ts);
      return entry?.answered ? entry : undefined;
    }, 'the answer kept in the state file');
    expect(kept.argumentsDigest).toBe(argumentsDigest(ARGS));
    expect(kept.answered?.answeredBy).toBe('alice@example.com');

    // The answer carried that digest to the run (the decide update's input, as history recorded it).
    const decide = (await run.handle.fetchHistory()).events!.filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'decide').pop();
    const sent = JSON.parse(Buffer.from(decide!.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.args!.payloads![0]!.data!).toString('utf8')) as Record<string, unknown>;
    expect(sent).toMatchObject({ callId, approved: true, answeredBy: 'alice@example.com', argumentsDigest: argumentsDigest(ARGS), input: { order_id: 'ORD-7', amount: 5 } });

    // No secret in the run's history, in the logs, or in what was posted to Slack.
    const history = JSON.stringify(await run.handle.fetchHistory());
    const seen = [history, kit.logs.join('\n'), JSON.stringify(kit.api.calls)];
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, NOTICE_SECRET]) for (const text of seen) expect(text).not.toContain(secret);
  });

  test('Deny: the tool does not run, the run reads the denial, the message says who denied', async () => {
    const { run, callId, message } = await waitingRun();
    const before = executed.length;
    const denied = await click(kit, { user: BOB, action: 'durable_agent_deny', workflowId: run.workflowId, callId, ts: message.ts });
    expect(denied.status).toBe(200);
    const result = await run.result();
    expect(result.output).toBe('Done: Permission denied by user: Denied in Slack by bob@example.com');
    expect(executed.length).toBe(before);
    expect(await decisionsOf(run)).toEqual([expect.objectContaining({ behavior: 'deny', by: 'user', answeredBy: 'bob@example.com' })]);
    const update = await waitFor(async () => updatesOf(kit.api, message.ts)[0], 'the message updated');
    expect(update.args.text).toContain('Denied by bob@example.com');
  });

  test('a forged signature, a tampered body and a replayed (old) request are refused with 401 and change nothing; a malformed payload is a 400', async () => {
    const { run, callId, message } = await waitingRun();
    const approve = clickPayload({ user: ALICE, action: 'durable_agent_approve', workflowId: run.workflowId, callId, channel: CHANNEL, ts: message.ts });

    const forged = await postInteraction(kit, approve, (body) => slackSignature(body, 'not-the-signing-secret-of-the-app'));
    expect(forged.status).toBe(401);
    const tampered = await postInteraction(kit, approve, (body) => slackSignature(body.replace('durable_agent_approve', 'durable_agent_deny'), SIGNING_SECRET));
    expect(tampered.status).toBe(401);
    const unsigned = await postInteraction(kit, approve, () => ({}));
    expect(unsigned.status).toBe(401);
    // Signed correctly, six minutes ago: a captured request sent again.
    const replayed = await postInteraction(kit, approve, (body) => slackSignature(body, SIGNING_SECRET, Math.floor(Date.now() / 1000) - 6 * 60));
    expect(replayed.status).toBe(401);
    expect(await replayed.text()).toMatch(/stale/);
    // Signed correctly, now, and taken once (an unmapped user's click: nothing reaches the run): the same request again is a replay.
    const once = clickPayload({ user: 'U0NOBODY', action: 'durable_agent_approve', workflowId: run.workflowId, callId, channel: CHANNEL, ts: message.ts });
    const headers = (body: string) => slackSignature(body, SIGNING_SECRET);
    let signed: Record<string, string> | undefined;
    expect((await postInteraction(kit, once, (body) => (signed = headers(body)))).status).toBe(200);
    const again = await postInteraction(kit, once, () => signed!);
    expect(again.status).toBe(401);
    expect(await again.text()).toMatch(/replay/);
    // Signed with a timestamp ten minutes ahead.
    const ahead = await postInteraction(kit, approve, (body) => slackSignature(body, SIGNING_SECRET, Math.floor(Date.now() / 1000) + 10 * 60));
    expect(ahead.status).toBe(401);

    const malformed = await postInteraction(kit, { ...approve, actions: [{ action_id: 'durable_agent_approve', value: 'not json' }] });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/not JSON/);
    const notForm = await fetch(`${kit.inbox.url}/slack/interactions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...slackSignature('{}', SIGNING_SECRET) }, body: '{}' });
    expect(notForm.status).toBe(400);
    // A notice not signed with the notice secret is refused too.
    const notice = await fetch(`${kit.inbox.url}/slack/notices`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ event: 'answered', workflowId: run.workflowId }) });
    expect(notice.status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await stillWaits(run, callId)).toBe(true);
    expect(await decisionsOf(run)).toEqual([]);
    expect(updatesOf(kit.api, message.ts)).toEqual([]);
    await run.deny(callId, 'cleanup', { answeredBy: 'test' });
    await run.result();
  });

  test('an unmapped Slack user is told so, only to them, and nothing is sent to the run', async () => {
    const { run, callId, message } = await waitingRun();
    const clicked = await click(kit, { user: MALLORY, action: 'durable_agent_approve', workflowId: run.workflowId, callId, ts: message.ts });
    expect(clicked.status).toBe(200);
    const told = await waitFor(async () => kit.api.callsOf('chat.postEphemeral').find((call) => call.args.user === MALLORY), 'the ephemeral refusal');
    expect(told.args.channel).toBe(CHANNEL);
    expect(told.args.text).toMatch(/not mapped to an approver identity/);
    expect(await stillWaits(run, callId)).toBe(true);
    expect(await decisionsOf(run)).toEqual([]);
    expect(updatesOf(kit.api, message.ts)).toEqual([]);
    await run.deny(callId, 'cleanup', { answeredBy: 'test' });
    await run.result();
  });

  test('answered in the inbox first: the message says who answered and how; a click after that changes nothing', async () => {
    const { run, callId, message } = await waitingRun();
    const item = `${kit.inbox.url}/calls/${encodeURIComponent(run.workflowId)}/${encodeURIComponent(callId)}`;
    const page = await (await fetch(item, { headers: { Authorization: `Bearer ${INBOX_TOKEN}` } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const posted = await fetch(item, {
      method: 'POST',
      redirect: 'manual',
      headers: { Authorization: `Bearer ${INBOX_TOKEN}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, action: 'deny', reason: 'not this one' }).toString(),
    });
    expect(posted.status).toBe(303);
    const update = await waitFor(async () => updatesOf(kit.api, message.ts)[0], 'the message updated by the answered notice');
    expect(update.args.text).toContain('Denied by carol');

    const late = await click(kit, { user: ALICE, action: 'durable_agent_approve', workflowId: run.workflowId, callId, ts: message.ts });
    expect(late.status).toBe(200);
    const told = await waitFor(async () => kit.api.callsOf('chat.postEphemeral').find((call) => call.args.user === ALICE), 'the refusal of the late click');
    expect(told.args.text).toMatch(/refused|no longer waits/);
    expect(await decisionsOf(run)).toEqual([expect.objectContaining({ behavior: 'deny', answeredBy: 'carol' })]);
    expect(updatesOf(kit.api, message.ts)).toHaveLength(1);
    await run.result();
  });

  test('after a restart of the endpoint, a call answered elsewhere while it was down gets its message updated (kept in the state file)', async () => {
    const { run, callId, message } = await waitingRun();
    await kit.endpoint.close();
    kit.swap(undefined);
    await run.deny(callId, 'from the CLI', { answeredBy: 'dave' });
    await run.result();
    expect(updatesOf(kit.api, message.ts)).toEqual([]);

    const restarted = await kit.newEndpoint();
    kit.swap(restarted);
    const update = await waitFor(async () => updatesOf(kit.api, message.ts)[0], 'the message updated after the restart');
    expect(update.args.text).toContain('Denied by dave');
    expect(update.args.channel).toBe(CHANNEL);
  });

  test('reminders and the escalation go to the message\'s thread; one who is not an approver is refused by the run; the escalated approver answers', async () => {
    const { run, callId, message } = await waitingRun('slack-reminded');
    expect(JSON.stringify(message.call.args.blocks)).toContain('Approvers: alice@example.com');

    await click(kit, { user: ERIN, action: 'durable_agent_approve', workflowId: run.workflowId, callId, ts: message.ts });
    const refused = await waitFor(async () => kit.api.callsOf('chat.postEphemeral').find((call) => call.args.user === ERIN), 'the run\'s refusal, told to erin');
    expect(refused.args.text).toMatch(/The run refused the answer/);
    expect(await stillWaits(run, callId)).toBe(true);

    const thread = () => kit.api.callsOf('chat.postMessage').filter((call) => call.args.thread_ts === message.ts);
    const posted = await waitFor(async () => (thread().length >= 2 ? thread() : undefined), 'the reminder and the escalation in the thread', 30_000);
    expect(posted.map((call) => call.args.channel)).toEqual([CHANNEL, CHANNEL]);
    expect(posted[0]!.args.text).toMatch(/Reminder/);
    expect(posted[1]!.args.text).toMatch(/Escalated to .*bob@example.com/);

    await click(kit, { user: BOB, action: 'durable_agent_approve', workflowId: run.workflowId, callId, ts: message.ts });
    expect((await run.result()).output).toBe('Done: refunded 12 on ORD-7');
    const update = await waitFor(async () => updatesOf(kit.api, message.ts)[0], 'the message updated');
    expect(update.args.text).toContain('Approved by bob@example.com');
    // A notice delivered twice is posted once: the thread holds one line per reminder and escalation.
    expect(thread()).toHaveLength(2);
  });
});
