import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRunStreamHandler } from '../../src/client/stream/stream-http';
import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { describeWithChromium, launchBrowser, type Browser } from '../helpers/chromium';
import { waitFor } from '../helpers/wait-for';

// About 80 chunks of 4 characters, 60 ms apart: the answer takes some 5 s to write.
const ANSWER =
  'Your parcel left the depot in Leeds this morning and reaches you tomorrow before noon. ' +
  'The courier calls ahead; if nobody is home it goes to the pick-up point on Mill Street, ' +
  'where it waits for seven days. Nothing else is needed from you now.';

const narrator = defineAgent({ name: 'page-narrator', instructions: 'Answer at length.', model: { stream: true }, tools: [echoTool] });

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Reads a server-sent events response to its end (the run's end) with the events in order. */
async function readSse(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(': ');
        const value = rest.join(': ');
        if (field === 'id') event.id = value;
        if (field === 'event') event.event = value;
        if (field === 'data') event.data = value;
      }
      return event;
    });
}

describeWithChromium('a browser follows a run through the stream endpoint', () => {
  let env: AgentTestEnv;
  let server: Server;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [narrator], script: [ANSWER], modelServer: { chunkDelayMs: 60 } });
    const streams = createRunStreamHandler({ client: env.client, basePath: '/agents' });
    server = createServer((request, response) => {
      streams(request, response).then(
        (handled) => handled || response.writeHead(404).end('not ours'),
        () => response.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agents`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await env?.stop();
  });

  test('a page reloaded mid-answer shows the whole answer once', async () => {
    const run = await env.client.start('page-narrator', { prompt: 'where is my parcel?' });
    const page = await browser.context.newPage();
    await page.goto(`${base}/runs/${encodeURIComponent(run.workflowId)}`);
    const reply = page.locator('li.reply');
    await waitFor(async () => ((await reply.first().textContent().catch(() => '')) ?? '').length > 40 || undefined, 'some of the answer on the page');
    const before = (await reply.first().textContent()) ?? '';
    expect(ANSWER.startsWith(before)).toBe(true);
    expect(before.length).toBeLessThan(ANSWER.length);

    await page.reload();
    await page.locator('#run-status[data-status="completed"]').waitFor({ timeout: 30_000 });
    expect(await reply.allTextContents()).toEqual([ANSWER]);
    await page.close();
  }, 60_000);

  test('the SSE endpoint names each item by its cursor, resumes after Last-Event-ID, and refuses a foreign cursor', async () => {
    const run = await env.client.start('page-narrator', { prompt: 'where is my parcel?' });
    const whole = await readSse(await fetch(`${base}/runs/${encodeURIComponent(run.workflowId)}/stream`));
    expect(whole.at(-1)?.event).toBe('end');
    const items = whole.slice(0, -1);
    expect(items.every((item) => item.id && item.event)).toBe(true);
    const text = (events: SseEvent[]) => events.filter((e) => e.event === 'text_delta').map((e) => (JSON.parse(e.data) as { text: string }).text).join('');
    expect(text(items)).toBe(ANSWER);

    // From the middle of the answer on, after the run ended: the rest of the answer (from the reply
    // the run recorded, its call's deltas being gone with it), and the events after, once.
    const middle = items.findIndex((item) => item.event === 'text_delta') + 10;
    const rest = await readSse(await fetch(`${base}/runs/${encodeURIComponent(run.workflowId)}/stream`, { headers: { 'Last-Event-ID': items[middle]!.id! } }));
    expect(text(items.slice(0, middle + 1)) + text(rest)).toBe(ANSWER);
    const events = (list: SseEvent[]) => list.filter((e) => e.event === 'event').map((e) => e.data);
    expect(events(rest)).toEqual(events(items.slice(middle + 1)));

    const other = await env.client.start('page-narrator', { prompt: 'again' });
    const refused = await fetch(`${base}/runs/${encodeURIComponent(other.workflowId)}/stream?from=${encodeURIComponent(items[middle]!.id!)}`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`not one of a stream of run ${other.workflowId}`);
    expect((await fetch(`${base}/runs/no-such-run/stream`)).status).toBe(404);
    await other.result();
  }, 60_000);
});
