import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startFakeSlackApi, type FakeSlackApi } from './fake-slack-api';
import { AGENT, ALICE, BOT_TOKEN, CHANNEL, click, NOTICE_SECRET, postedMessage, SIGNING_SECRET, updatesOf } from './slack-kit';
import { clickPayload, interactionBody, slackSignature } from './slack-signing';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');

function urlOf(child: ChildProcess): Promise<{ url: string; interactions: string; notices: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { url: string; interactions: string; notices: string });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`slack exited with ${code}: ${err}`)));
  });
}

describe('durable-agent slack: the endpoint on its own', () => {
  let env: AgentTestEnv;
  let api: FakeSlackApi;
  let dir: string;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [AGENT],
      script: (_request, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'ORD-7', amount: 12 } }] } : `Done: ${info.toolResults[0]!.content}`),
    });
    api = await startFakeSlackApi(BOT_TOKEN);
    dir = await mkdtemp(join(tmpdir(), 'durable-agent-slack-command-'));
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await api?.close();
    await env?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('catches up with a call that waited before it started, answers a signed click, refuses a forged one, and follows a signed notice', async () => {
    const run = await env.client.start('slack-refunds', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    const callId = pending[0]!.callId;

    const args = ['--import', 'tsx', CLI, 'slack', '--port', '0', '--json', '--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
    args.push('--channel', CHANNEL, '--user', `${ALICE}=alice@example.com`, '--query', `TaskQueue = '${env.taskQueue}'`, '--state-file', join(dir, 'messages.json'));
    child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AGENT_SLACK_BOT_TOKEN: BOT_TOKEN, AGENT_SLACK_SIGNING_SECRET: SIGNING_SECRET, AGENT_SLACK_NOTICE_SECRET: NOTICE_SECRET, AGENT_SLACK_API_URL: api.url },
    });
    const served = await urlOf(child);
    expect(served.interactions).toBe(`${served.url}/slack/interactions`);

    // No notice came (this worker has no webhook): the catch-up at start found the call through visibility.
    const message = await postedMessage(api, run.workflowId);
    expect(message.callId).toBe(callId);

    const approve = clickPayload({ user: ALICE, action: 'durable_agent_approve', workflowId: run.workflowId, callId, channel: CHANNEL, ts: message.ts });
    const body = interactionBody(approve);
    const forged = await fetch(served.interactions, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...slackSignature(body, 'a-secret-that-is-not-the-apps') }, body });
    expect(forged.status).toBe(401);
    expect((await fetch(`${served.url}/elsewhere`)).status).toBe(404);
    expect((await run.state()).pending).toHaveLength(1);

    const kit = { inbox: { url: served.url } } as Parameters<typeof click>[0];
    expect((await click(kit, { user: ALICE, action: 'durable_agent_approve', workflowId: run.workflowId, callId, ts: message.ts })).status).toBe(200);
    expect((await run.result()).output).toBe('Done: refunded 12 on ORD-7');
    const update = await waitFor(async () => updatesOf(api, message.ts)[0], 'the message updated');
    expect(update.args.text).toContain('Approved by alice@example.com');

    // A notice as the worker's webhook signs it; one signed with another secret is refused.
    const notice = JSON.stringify({ type: 'call.answered', event: 'answered', workflowId: run.workflowId, agent: 'slack-refunds', callId, tool: 'refund', kind: 'approval', outcome: 'approved', answeredBy: 'alice@example.com', at: new Date().toISOString() });
    const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(notice).digest('hex')}`;
    const refused = await fetch(served.notices, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Durable-Agent-Signature': sign('another-secret-0123456789') }, body: notice });
    expect(refused.status).toBe(401);
    const taken = await fetch(served.notices, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Durable-Agent-Signature': sign(NOTICE_SECRET) }, body: notice });
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({ done: 'ignored' });
    const malformed = JSON.stringify({ event: 'waiting' });
    const bad = await fetch(served.notices, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Durable-Agent-Signature': `sha256=${createHmac('sha256', NOTICE_SECRET).update(malformed).digest('hex')}` }, body: malformed });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/not a notice: workflowId/);
    expect(updatesOf(api, message.ts)).toHaveLength(1);
  });
});
