import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import type { Page } from 'playwright-core';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import type { AgentEvent } from '../../src/common/events';
import { stateQuery } from '../../src/common/definitions';
import type { InboxServer } from '../../src/inbox/inbox-server';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { startCodecWorker, type RunningWorker } from '../codec/helpers/codec-worker';
import { keySet } from '../codec/helpers/test-keys';
import { inboxAgents, inboxRefunds, inboxScripts } from '../fixtures/inbox-agents';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { describeWithChromium, launchBrowser, type Browser } from '../helpers/chromium';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { ALICE_TOKEN, bearer, BOB_TOKEN, itemUrl, rowOf, startInbox } from './inbox-kit';

const SCREENSHOT = join(__dirname, '..', '..', 'docs', 'images', 'inbox-approval.png');
const BUDGET_SCREENSHOT = join(__dirname, '..', '..', 'docs', 'images', 'inbox-budget.png');

async function decidedBy(client: AgentClient, workflowId: string): Promise<AgentEvent[]> {
  return (await client.get(workflowId).eventsAfter(0)).filter((event) => event.type === 'permission_decided' || event.type === 'external_submitted');
}

describeWithChromium('the inbox in a browser, on the dev server', () => {
  let env: AgentTestEnv;
  let inbox: InboxServer;
  let alice: Browser;
  let page: Page;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: inboxAgents, byModel: inboxScripts });
    inbox = await startInbox(env.client, env.taskQueue);
    alice = await launchBrowser({ extraHTTPHeaders: bearer(ALICE_TOKEN) });
    page = await alice.context.newPage();
  });
  afterAll(async () => {
    await alice?.close();
    await inbox?.close();
    await env?.stop();
  });

  async function waitingRun(agent: string, prompt: string, userId?: string) {
    const run = await env.client.start(agent, { prompt, ...(userId ? { userId } : {}) });
    const { pending } = await waitForPending(run);
    return { run, call: pending[0]! };
  }

  test('approve with edits through the form made from the tool schema; the decision and its event name who answered', async () => {
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-11', 'carol');
    await page.goto(`${inbox.url}/`);
    const row = await rowOf(page, run.workflowId, call.callId);
    expect(await row.textContent()).toContain('carol');
    await row.getByRole('link', { name: 'refund' }).click();

    await page.locator('[data-reason]').waitFor();
    expect(await page.locator('dl.facts').textContent()).toEqual(expect.stringContaining('inbox-refunds'));
    expect(await page.locator('dl.facts').textContent()).toEqual(expect.stringContaining('carol'));
    expect(await page.getByRole('link', { name: 'Temporal Web UI' }).getAttribute('href')).toContain(`/workflows/${run.workflowId}`);
    expect(await page.locator('[name="arg:order_id"]').inputValue()).toBe('ORD-11');
    expect(await page.locator('[name="arg:amount"]').inputValue()).toBe('30');
    expect(await page.locator('.message.user pre').first().textContent()).toBe('Refund ORD-11');
    expect(await page.locator('textarea[name="raw"]').inputValue()).toContain('"amount": 30');

    await page.locator('[name="arg:amount"]').fill('25');
    await page.locator('[name="arg:note"]').fill('partial: one item came back');
    // The approvals guide's picture; RECORD_SCREENSHOTS=1 writes it to docs/images.
    const shot = await page.screenshot({ fullPage: true, ...(process.env.RECORD_SCREENSHOTS === '1' ? { path: SCREENSHOT } : {}) });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('.done').waitFor();
    const answered = await page.locator('[data-answered-by]').textContent();
    expect(answered).toContain('approved by alice');
    // A time people read (UTC, to the minute, how long ago), not an ISO string.
    expect(answered).toMatch(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC \(\d+s ago\)/);
    expect(answered).not.toMatch(/\d{4}-\d{2}-\d{2}T/);

    expect((await run.result()).output).toBe('Refunds: refunded 25 on ORD-11');
    const edited = { order_id: 'ORD-11', amount: 25, note: 'partial: one item came back' };
    // The decision's event records the arguments the call ran with.
    expect(await decidedBy(env.client, run.workflowId)).toEqual([expect.objectContaining({ type: 'permission_decided', behavior: 'allow', answeredBy: 'alice', input: edited })]);
    // One's own answer is not "answered elsewhere", however long the page stays open.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await page.locator('#gone').isHidden()).toBe(true);
    // The conversation marks the edit: who changed what. A page shows what the ended run answers
    // within the inbox's read deadline (10 s), which a loaded machine can miss: read it again then.
    await waitFor(async () => {
      await page.reload();
      return (await page.locator('[data-edit]').count()) > 0 ? true : undefined;
    }, 'the conversation with its edit on the call page', 90_000);
    expect(await page.locator('[data-edit]').textContent()).toBe('Arguments changed before approval: amount 30 → 25, note (none) → "partial: one item came back", by alice');
  });

  test('the refusals and error pages speak the inbox\'s words: a run that ended, a page that does not exist', async () => {
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-21');
    await page.goto(itemUrl(inbox, run.workflowId, call.callId));
    await page.locator('[name="arg:amount"]').waitFor();
    await run.cancel();
    await waitFor(async () => ((await run.execution()).status === 'CANCELLED' ? true : undefined), 'the run to end');
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Approve', exact: true }).click()]);
    expect(refused.status()).toBe(409);
    const refusal = await page.locator('[data-refusal]').textContent();
    expect(refusal).toBe('The run has ended, so this call no longer waits: nothing was sent.');
    expect(await page.content()).not.toContain('workflow execution already completed');

    const missing = await page.goto(`${inbox.url}/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('header').textContent()).not.toContain('signed in as');
  });

  test("an edit the tool's schema refuses is shown at its field and nothing is sent; one only the run refuses comes back inline", async () => {
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-12');
    await page.goto(itemUrl(inbox, run.workflowId, call.callId));
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    // Checked in the page against the tool's JSON Schema: the error at its field, no request at all.
    await page.locator('[name="arg:amount"]').fill('900');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    expect(await page.locator('.field[data-field="amount"] .error').textContent()).toBe('must be <= 500');
    await page.locator('[name="arg:amount"]').fill('lots');
    await page.locator('[name="arg:order_id"]').fill('');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    expect(await page.locator('.field[data-field="amount"] .error').textContent()).toBe("'lots' is not a number");
    expect(await page.locator('.field[data-field="order_id"] .error').textContent()).toBe('is required');
    expect(await page.locator('#not-sent').isVisible()).toBe(true);
    expect(posts).toEqual([]);

    // The inbox checks again what reaches it without the page's script: the same errors, and nothing sent to the run.
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    const direct = await page.request.post(itemUrl(inbox, run.workflowId, call.callId), {
      form: { csrf, action: 'approve', 'arg:order_id': 'ORD-12', 'arg:amount': '900' },
      headers: { Origin: inbox.url },
    });
    expect(direct.status()).toBe(422);
    const body = await direct.text();
    expect(body).toContain('nothing was sent');
    expect(body).toMatch(/data-field="amount">[\s\S]*?<p class="error" role="alert">must be &lt;= 500<\/p>/);
    const json = await page.request.post(itemUrl(inbox, run.workflowId, call.callId), {
      form: { csrf, action: 'approve-json', raw: '{"order_id":"ORD-12","amount":30,"extra":1}' },
      headers: { Origin: inbox.url },
    });
    expect(json.status()).toBe(422);

    const state = await run.handle.query(stateQuery);
    expect(state.pending).toHaveLength(1);
    expect(state.calls?.find((record) => record.callId === call.callId)?.answer).toBeUndefined();
    expect(await decidedBy(env.client, run.workflowId)).toEqual([]);

    // Within the JSON Schema, but not the tool's own check (a refinement): the run refuses it.
    await page.reload();
    await page.locator('[name="arg:amount"]').fill('20');
    await page.locator('[name="arg:order_id"]').fill('XYZ-12');
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Approve', exact: true }).click()]);
    expect(refused.status()).toBe(409);
    expect(await page.locator('[data-refusal]').textContent()).toContain('order ids start with ORD-');
    expect((await run.state()).pending).toHaveLength(1);
    await run.cancel();
  });

  test('a budget reached is answered like an approval: the form is made from the amounts, and the amount a person sets is allowed', async () => {
    const { run, call } = await waitingRun('inbox-budget', 'Look ORD-51 up', 'carol');
    expect(call.tool).toBe('$budget');
    await page.goto(itemUrl(inbox, run.workflowId, call.callId));
    await page.locator('[data-reason]').waitFor();
    expect(await page.locator('[data-reason]').textContent()).toMatch(/budget of 1,500 tokens reached \(1,000 tokens spent, the next model call ≈ [\d,]+ tokens\): allow 1,000 tokens more\?/);
    expect(await page.locator('[name="arg:tokens"]').inputValue()).toBe('1000');
    await page.locator('[name="arg:tokens"]').fill('0');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    expect(await page.locator('.field[data-field="tokens"] .error').textContent()).toBe('must be > 0');
    await page.reload();
    expect(await page.locator('h2').first().textContent()).toContain("The run's budget is reached: allow more?");
    await page.locator('[name="arg:tokens"]').fill('4000');
    // The budgets guide's picture; RECORD_SCREENSHOTS=1 writes it to docs/images.
    const shot = await page.screenshot({ fullPage: true, ...(process.env.RECORD_SCREENSHOTS === '1' ? { path: BUDGET_SCREENSHOT } : {}) });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('.done').waitFor();
    expect(await run.result()).toMatchObject({ status: 'completed', output: 'Budget: ORD-51: delivered', budget: { limit: { tokens: 5500 }, raised: { tokens: 4000 } } });
    expect(await decidedBy(env.client, run.workflowId)).toEqual([expect.objectContaining({ tool: '$budget', behavior: 'allow', answeredBy: 'alice', input: { tokens: 4000 } })]);
  });

  test('deny with a reason: the agent reads it', async () => {
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-13');
    await page.goto(itemUrl(inbox, run.workflowId, call.callId));
    await page.getByLabel('reason').fill('the order is older than 30 days');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.locator('.done').waitFor();
    expect((await run.result()).output).toBe('Refunds: Permission denied by user: the order is older than 30 days');
    expect(await decidedBy(env.client, run.workflowId)).toEqual([expect.objectContaining({ behavior: 'deny', answeredBy: 'alice' })]);
  });

  test("a message for the agent sent from a waiting call's page reaches the run's next model call, with who sent it", async () => {
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-15');
    await page.goto(itemUrl(inbox, run.workflowId, call.callId));
    await page.getByLabel('message to the agent').fill('only the blue case, please');
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await page.locator('.done').waitFor();
    expect(await page.locator('.done').textContent()).toBe('Message sent: the agent reads it at its next step.');
    await run.approve(call.callId);
    const result = await run.result();
    expect(result.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['Refund ORD-15', 'only the blue case, please']);
    expect((await run.eventsAfter(0)).filter((event) => event.type === 'input_added')).toEqual([expect.objectContaining({ position: 1, text: 'only the blue case, please', addedBy: 'alice' })]);
  });

  test("an external tool's result submitted from the page", async () => {
    const { run, call } = await waitingRun('inbox-shipper', 'Ship ORD-14');
    await page.goto(`${inbox.url}/?kind=external`);
    await (await rowOf(page, run.workflowId, call.callId)).getByRole('link', { name: 'ship_parcel' }).click();
    expect(await page.locator('main pre').first().textContent()).toContain('ORD-14');
    await page.getByLabel('result').fill('tracking SF42');
    await page.getByRole('button', { name: 'Submit result' }).click();
    await page.locator('.done').waitFor();
    expect((await run.result()).output).toBe('Shipped: tracking SF42');
    expect(await decidedBy(env.client, run.workflowId)).toEqual([expect.objectContaining({ type: 'external_submitted', answeredBy: 'alice' })]);
  });

  test("a grandchild's approval is listed under its own run and answered from the inbox through the top-level run", async () => {
    const run = await env.client.start('inbox-director', { prompt: 'Settle ORD-15' });
    const { pending } = await waitForPending(run);
    const call = pending[0]!;
    expect(call.workflowId!.split('/')).toHaveLength(3);
    await page.goto(`${inbox.url}/?agent=inbox-clerk`);
    const row = await rowOf(page, call.workflowId!, call.callId);
    expect(await row.textContent()).toContain(`sub-agent of inbox-director (${run.workflowId})`);
    await row.getByRole('link', { name: 'refund' }).click();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('.done').waitFor();
    expect((await run.result()).output).toBe('Director: Team: Refunds: refunded 30 on ORD-15');
    expect(await decidedBy(env.client, call.workflowId!)).toEqual([expect.objectContaining({ behavior: 'allow', answeredBy: 'alice' })]);
  });

  test('two browsers answer the same call: the second is refused and sees who answered first', async () => {
    const run = await env.client.start('inbox-pair', { prompt: 'Refund ORD-16' });
    const call = (await waitForPending(run, 2)).pending[0]!;
    const bob = await launchBrowser({ extraHTTPHeaders: bearer(BOB_TOKEN) });
    try {
      const bobPage = await bob.context.newPage();
      await Promise.all([page.goto(itemUrl(inbox, run.workflowId, call.callId)), bobPage.goto(itemUrl(inbox, run.workflowId, call.callId))]);
      expect(await bobPage.locator('[data-identity]').textContent()).toBe('bob');
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.locator('.done').waitFor();
      // Bob's open page hears that the call stopped waiting.
      await bobPage.locator('#gone:not([hidden])').waitFor({ timeout: 20_000 });
      const [response] = await Promise.all([bobPage.waitForResponse((r) => r.request().method() === 'POST'), bobPage.getByRole('button', { name: 'Approve', exact: true }).click()]);
      expect(response.status()).toBe(409);
      expect(await bobPage.locator('[data-refusal]').textContent()).toContain(`tool call '${call.callId}' was already decided`);
      expect(await bobPage.locator('[data-answered-by]').getAttribute('data-answered-by')).toBe('alice');
      expect(await bobPage.locator('[data-answered-by]').textContent()).toContain('Already approved by alice');
    } finally {
      await bob.close();
    }
    expect(await decidedBy(env.client, run.workflowId)).toEqual([expect.objectContaining({ callId: call.callId, answeredBy: 'alice' })]);
    await run.cancel();
  });

  test('without the token: 401 for pages, events and answers; a post without the CSRF token is refused; signing in with the token works', async () => {
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-17');
    for (const path of ['/', '/events', '/fragment', `/calls/${encodeURIComponent(run.workflowId)}/${call.callId}`]) {
      const response = await fetch(`${inbox.url}${path}`);
      expect([path, response.status]).toEqual([path, 401]);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const wrong = await fetch(`${inbox.url}${path}`, { headers: bearer('not-the-token-0123456789') });
      expect([path, wrong.status]).toEqual([path, 401]);
    }
    const form = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' };
    expect((await fetch(itemUrl(inbox, run.workflowId, call.callId), form)).status).toBe(401);
    const forged = await fetch(itemUrl(inbox, run.workflowId, call.callId), { ...form, headers: { ...form.headers, ...bearer(ALICE_TOKEN) } });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('CSRF');
    expect((await run.state()).pending).toHaveLength(1);

    const stranger = await launchBrowser();
    try {
      const strangerPage = await stranger.context.newPage();
      const first = await strangerPage.goto(`${inbox.url}/`);
      expect(first?.status()).toBe(401);
      expect(await strangerPage.content()).not.toContain(call.callId);
      await strangerPage.locator('input[name="token"]').fill(ALICE_TOKEN);
      await strangerPage.getByRole('button', { name: 'Sign in' }).click();
      await rowOf(strangerPage, run.workflowId, call.callId);
      expect(await strangerPage.locator('[data-identity]').textContent()).toBe('alice');
      expect(await strangerPage.content()).not.toContain(ALICE_TOKEN);
    } finally {
      await stranger.close();
    }
    await run.cancel();
  });

  test('the conversation so far, a page at a time, the newest first', async () => {
    const { run, call } = await waitingRun('inbox-chatty', 'Check, then refund ORD-19');
    await page.goto(itemUrl(inbox, run.workflowId, call.callId));
    expect(await page.locator('.pager').textContent()).toContain('page 2 of 2');
    const newest = await page.locator('.message pre').allTextContents();
    expect(newest).toHaveLength(10);
    expect(newest[newest.length - 1]).toContain('→ refund');
    expect(newest).not.toContain('Check, then refund ORD-19');
    await page.getByRole('link', { name: '← earlier' }).click();
    expect(await page.locator('.pager').textContent()).toContain('page 1 of 2');
    const earliest = await page.locator('.message pre').allTextContents();
    expect(earliest[0]).toBe('Check, then refund ORD-19');
    expect(earliest[1]).toContain('→ lookup {"order_id":"ORD-L0"}');
    await run.cancel();
  });

  test('every waiting call is reachable: the list goes on page by page, and a call far down opens from its link', async () => {
    const runs = await Promise.all(Array.from({ length: 55 }, (_, index) => env.client.start('inbox-refunds', { prompt: `Refund ORD-P${index}`, userId: 'paging' })));
    const calls = await Promise.all(runs.map(async (run) => ({ run, call: (await waitForPending(run, 1, 60_000)).pending[0]! })));
    const shown = new Set<string>();
    await waitFor(
      async () => {
        shown.clear();
        await page.goto(`${inbox.url}/?user=paging`);
        for (;;) {
          for (const row of await page.locator('tr[data-run]').all()) shown.add(`${await row.getAttribute('data-run')}/${await row.getAttribute('data-call')}`);
          const next = page.locator('[data-next]');
          if ((await next.count()) === 0) break;
          await next.click();
        }
        return shown.size === calls.length ? true : undefined;
      },
      'every call of the 55 runs on some page',
      60_000,
    );
    expect([...shown].sort()).toEqual(calls.map(({ run, call }) => `${run.workflowId}/${call.callId}`).sort());
    // The first run's call, wherever it is listed, opens from its own address with its form.
    const first = calls[0]!;
    await page.goto(itemUrl(inbox, first.run.workflowId, first.call.callId));
    expect(await page.locator('[name="arg:order_id"]').inputValue()).toBe('ORD-P0');
    await Promise.all(runs.map((run) => run.cancel()));
  }, 180_000);

  test('the list updates live when a new run starts waiting', async () => {
    await page.goto(`${inbox.url}/`);
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    const { run, call } = await waitingRun('inbox-refunds', 'Refund ORD-18');
    await rowOf(page, run.workflowId, call.callId);
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);
    await run.cancel();
  });
});

describeWithChromium('the inbox with encrypted payloads', () => {
  const keys = keySet('k-inbox');
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let client: AgentClient;
  let inbox: InboxServer;
  let browser: Browser;
  const taskQueue = uniqueTaskQueue('inbox-encrypted');

  beforeAll(async () => {
    model = await startScriptedModelServer({ byModel: inboxScripts });
    worker = await startCodecWorker({ agents: [inboxRefunds], taskQueue, modelBaseURL: model.baseURL, dataConverter: encryptedDataConverter(keys) });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue, dataConverter: encryptedDataConverter(keys) });
    inbox = await startInbox(client, taskQueue);
    browser = await launchBrowser({ extraHTTPHeaders: bearer(ALICE_TOKEN) });
  });
  afterAll(async () => {
    await browser?.close();
    await inbox?.close();
    await worker?.stop();
    await model?.close();
  });

  test('an encrypted run is shown in plaintext by the inbox that holds the keys, and answered; history holds none of it', async () => {
    const run = await client.start('inbox-refunds', { prompt: 'Refund ORD-S3CRET77 for the customer' });
    const { pending } = await waitForPending(run);
    const page = await browser.context.newPage();
    await page.goto(`${inbox.url}/`);
    await (await rowOf(page, run.workflowId, pending[0]!.callId)).getByRole('link', { name: 'refund' }).click();
    expect(await page.locator('[name="arg:order_id"]').inputValue()).toBe('ORD-S3CRET77');
    expect(await page.locator('.message.user pre').first().textContent()).toBe('Refund ORD-S3CRET77 for the customer');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('.done').waitFor();
    expect((await run.result()).output).toBe('Refunds: refunded 30 on ORD-S3CRET77');

    const history = await run.handle.fetchHistory();
    const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
    expect(bytes.includes('S3CRET77')).toBe(false);
    expect(bytes.includes('alice')).toBe(false);
    await waitFor(async () => ((await decidedBy(client, run.workflowId)).length > 0 ? true : undefined), 'the decision');
    expect(await decidedBy(client, run.workflowId)).toEqual([expect.objectContaining({ answeredBy: 'alice' })]);
  });
});
