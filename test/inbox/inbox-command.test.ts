import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { inboxAgents, inboxScripts } from '../fixtures/inbox-agents';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitForPending } from '../helpers/wait-for';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const MODULE = join(ROOT, 'test', 'fixtures', 'inbox-agents.ts');
const TOKEN = 'dana-token-0123456789abcdef';

function inboxProcess(env: AgentTestEnv, extra: string[]): ChildProcess {
  const args = ['--import', 'tsx', CLI, 'inbox', '--module', MODULE, '--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue, ...extra];
  return spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

function urlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`inbox exited with ${code}: ${err}`)));
  });
}

describe('durable-agent inbox', () => {
  let env: AgentTestEnv;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: inboxAgents, byModel: inboxScripts });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await env?.stop();
  });

  test('serves the waiting calls of its query to the token, with forms made from the tools of --module', async () => {
    const run = await env.client.start('inbox-refunds', { prompt: 'Refund ORD-21' });
    const { pending } = await waitForPending(run);
    const child = inboxProcess(env, ['--port', '0', '--json', '--token', `dana=${TOKEN}`, '--query', `TaskQueue = '${env.taskQueue}'`]);
    children.push(child);
    const url = await urlOf(child);
    expect((await fetch(`${url}/`)).status).toBe(401);
    const list = await fetch(`${url}/`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).toContain(`data-call="${pending[0]!.callId}" data-run="${run.workflowId}"`);
    expect(text).toContain('signed in as <strong data-identity>dana</strong>');
    const item = await fetch(`${url}/calls/${encodeURIComponent(run.workflowId)}/${pending[0]!.callId}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const itemText = await item.text();
    expect(itemText).toContain('name="arg:amount" value="30"');
    // The item links to the run's stream, which is behind the sign-in like everything of a run.
    const runPath = `/runs/${encodeURIComponent(run.workflowId)}`;
    expect(itemText).toContain(`href="${runPath}" data-follow`);
    expect((await fetch(`${url}${runPath}/stream`)).status).toBe(401);
    expect((await fetch(`${url}${runPath}`)).status).toBe(401);
    const stop = new AbortController();
    const stream = await fetch(`${url}${runPath}/stream`, { headers: { Authorization: `Bearer ${TOKEN}` }, signal: stop.signal });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    let streamed = '';
    const decoder = new TextDecoder();
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      streamed += decoder.decode(chunk, { stream: true });
      if (streamed.includes('"waiting"')) break;
    }
    stop.abort();
    expect(streamed).toContain('event: event');
    expect(streamed).toContain(`"waiting":{"kind":"approval","callId":"${pending[0]!.callId}"`);
    const followPage = await fetch(`${url}${runPath}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(await followPage.text()).toContain('src="/run-stream.js"');
    // A page of another name resolving to loopback (DNS rebinding) is refused, with the token or without.
    const { port } = new URL(url);
    const rebound = await new Promise<number>((resolve, reject) => {
      const sent = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { Host: `evil.example:${port}`, Authorization: `Bearer ${TOKEN}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      sent.once('error', reject);
      sent.end();
    });
    expect(rebound).toBe(403);
    const badPath = await fetch(`${url}/calls/%E0%A4%A/x`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(badPath.status).toBe(400);
    expect(await badPath.text()).toContain('Bad path');
    const badQuery = await fetch(`${url}/?kind=sometimes`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(badQuery.status).toBe(400);
    expect(await badQuery.text()).toContain('Bad query: kind:');
    child.kill('SIGTERM');
    expect((await exitOf(child)).code).toBe(0);
    await run.cancel();
  });

  test('refuses to listen beyond loopback without a token or basic auth, and a token too short to be one', async () => {
    const open = inboxProcess(env, ['--port', '0', '--host', '0.0.0.0']);
    children.push(open);
    const refused = await exitOf(open);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--host 0.0.0.0 is not a loopback address');
    const short = inboxProcess(env, ['--port', '0', '--token', 'short']);
    children.push(short);
    const weak = await exitOf(short);
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('--token: a token must be at least 16 characters');
  });
});
