import type { Page } from 'playwright-core';
import type { AgentEvent } from '../../src/common/events';
import type { InboxServer } from '../../src/inbox/inbox-server';
import { inboxAgents, inboxScripts } from '../fixtures/inbox-agents';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { describeWithChromium, launchBrowser, type Browser } from '../helpers/chromium';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { ALICE_TOKEN, bearer, startInbox } from './inbox-kit';

const seqOf = (events: AgentEvent[], type: AgentEvent['type']) => events.find((event) => event.type === type)!.seq;
const runPath = (workflowId: string) => `/runs/${encodeURIComponent(workflowId)}`;

describe("the inbox's run page: fork from here", () => {
  let env: AgentTestEnv;
  let inbox: InboxServer;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: inboxAgents, byModel: inboxScripts });
    env.model.setScript((_request, info) => `Other model read: ${info.toolResults.map((result) => result.content).join(' | ') || info.lastUserText}`, { model: 'inbox-other' });
    inbox = await startInbox(env.client, env.taskQueue);
  });
  afterAll(async () => {
    await inbox?.close();
    await env?.stop();
  });

  /** A refund run approved and finished: the run forks are made of. */
  async function finishedRun(order: string) {
    const run = await env.client.start('inbox-refunds', { prompt: `Refund ${order}` });
    const { pending } = await waitForPending(run);
    await run.approve(pending[0]!.callId);
    expect((await run.result()).output).toBe(`Refunds: refunded 30 on ${order}`);
    return { run, events: await run.eventsAfter(0) };
  }

  const getPage = (path: string) => fetch(`${inbox.url}${path}`, { headers: bearer(ALICE_TOKEN) });
  const csrfOf = (text: string) => /name="csrf" value="([^"]+)"/.exec(text)![1]!;
  const postFork = (workflowId: string, fields: Record<string, string>) =>
    fetch(`${inbox.url}${runPath(workflowId)}/fork`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...bearer(ALICE_TOKEN), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const forksOf = (workflowId: string) => env.client.list({ query: `AgentForkOf = '${workflowId}'` });

  test('each event has a fork form; the post starts the fork on another model and leads to its page, which names the run and event it came from; the run lists it', async () => {
    const { run, events } = await finishedRun('ORD-41');
    const page = await getPage(runPath(run.workflowId));
    expect(page.status).toBe(200);
    const text = await page.text();
    for (const event of events) expect(text).toContain(`data-fork="${event.seq}"`);
    expect(text).toContain('data-fork="0"');
    expect(text).toContain('src="/run-stream.js"');

    const at = seqOf(events, 'tool_call_finished');
    const posted = await postFork(run.workflowId, { csrf: csrfOf(text), at: String(at), message: '', model: 'inbox-other' });
    expect(posted.status).toBe(303);
    const location = posted.headers.get('location')!;
    const forkId = decodeURIComponent(location.replace(/^\/runs\//, ''));
    expect(location).toBe(runPath(forkId));
    const fork = env.client.get(forkId);
    // The refund is not run again: the fork's model, another one, reads its result.
    expect((await fork.result()).output).toBe('Other model read: refunded 30 on ORD-41');
    expect((await fork.eventsAfter(0))[0]).toMatchObject({ type: 'run_forked', of: run.workflowId, after: at, model: 'inbox-other' });

    const forkPage = await (await getPage(location)).text();
    expect(forkPage).toContain(`Fork of <a href="${runPath(run.workflowId)}">${run.workflowId}</a> after event ${at}`);
    const listed = await waitFor(async () => {
      const parentPage = await (await getPage(runPath(run.workflowId))).text();
      return parentPage.includes(`data-fork="${forkId}"`) ? parentPage : undefined;
    }, "the fork on its run's page");
    expect(listed).toContain(`<a href="${location}">${forkId}</a>`);
  });

  test('a fork the run refuses shows why on the page and starts nothing; a stale form or a wrong field is refused before that', async () => {
    const { run, events } = await finishedRun('ORD-42');
    const csrf = csrfOf(await (await getPage(runPath(run.workflowId))).text());
    const last = events.at(-1)!.seq;

    const refused = await postFork(run.workflowId, { csrf, at: String(last + 5) });
    expect(refused.status).toBe(409);
    const refusal = /data-refusal>([^<]*)</.exec(await refused.text())![1];
    expect(refusal).toBe(`Not forked: run ${run.workflowId} has no event ${last + 5}: its events go up to ${last}. Nothing was started.`);

    const wrong = await postFork(run.workflowId, { csrf, at: 'the third' });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("at: an event&#39;s number (a whole number from 0)");
    const unknownField = await postFork(run.workflowId, { csrf, at: '1', prompt: 'x' });
    expect(unknownField.status).toBe(422);
    expect(await unknownField.text()).toContain('unknown field(s) prompt');

    const stale = await postFork(run.workflowId, { csrf: 'not-the-token', at: '1' });
    expect(stale.status).toBe(403);
    const unsigned = await fetch(`${inbox.url}${runPath(run.workflowId)}/fork`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, at: '1' }).toString(),
    });
    expect(unsigned.status).toBe(401);
    const otherOrigin = await fetch(`${inbox.url}${runPath(run.workflowId)}/fork`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...bearer(ALICE_TOKEN), Origin: 'http://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, at: '1' }).toString(),
    });
    expect(otherOrigin.status).toBe(403);

    // Visibility lags a start: long enough for a fork that had started to be listed by now.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await forksOf(run.workflowId)).toEqual([]);
    expect((await getPage(runPath('no-such-run'))).status).toBe(404);
  });

  describeWithChromium('in a browser', () => {
    let alice: Browser;
    let page: Page;
    beforeAll(async () => {
      alice = await launchBrowser({ extraHTTPHeaders: bearer(ALICE_TOKEN) });
      page = await alice.context.newPage();
    });
    afterAll(async () => alice?.close());

    test('"fork from here" on the start with an edited message: the fork asks about the new order, and its page names its parent', async () => {
      const { run } = await finishedRun('ORD-43');
      await page.goto(`${inbox.url}${runPath(run.workflowId)}`);
      const start = page.locator('li[data-seq="0"]');
      await start.getByText('fork from here').click();
      await start.getByLabel('message for the fork').fill('Refund ORD-44');
      // The post answers once the fork has started, which reads the ended run through its worker: slow on a loaded machine.
      await Promise.all([
        page.waitForURL((url) => url.pathname !== runPath(run.workflowId), { waitUntil: 'commit', timeout: 90_000 }),
        // The click waits for the navigation it starts too: the same room as waitForURL, not its default 30 s.
        start.getByRole('button', { name: 'Fork after event 0' }).click({ timeout: 90_000 }),
      ]);
      const forkId = decodeURIComponent(new URL(page.url()).pathname.replace(/^\/runs\//, ''));
      // The fork's page shows what the fork answers within the inbox's read deadline (10 s); a
      // fork whose first task waits on a loaded machine can miss it: read the page again then.
      await waitFor(async () => {
        if ((await page.locator('[data-fork-of]').count()) > 0) return true;
        await page.reload();
        return undefined;
      }, "the fork's page with its lineage", 90_000);
      expect(await page.locator('[data-fork-of]').textContent()).toBe(`Fork of ${run.workflowId} after event 0`);
      await page.getByRole('link', { name: run.workflowId }).waitFor();
      const fork = env.client.get(forkId);
      const { pending } = await waitForPending(fork);
      expect(pending[0]).toMatchObject({ tool: 'refund', input: { order_id: 'ORD-44', amount: 30 } });
      await fork.cancel();
    });
  });
});
