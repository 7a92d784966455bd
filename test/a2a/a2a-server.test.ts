import { request as httpRequest } from 'node:http';
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { dataPart } from '../../src/a2a/a2a-parts';
import { A2aKit, answerText, messageRequest, statusText } from '../helpers/a2a-kit';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait-for';
import { agents, a2aScripts, WRITER_ANSWER } from '../fixtures/a2a-agents';

const asTask = (reply: unknown): Task => {
  expect(reply).toHaveProperty('id');
  return reply as Task;
};

/** What a stream event says: its kind, the task state it gives, and its text. */
function describe_(event: StreamResponse): { kind: string; state?: TaskState; text: string } {
  const payload = event.payload!;
  switch (payload.$case) {
    case 'task':
      return { kind: 'task', state: payload.value.status?.state, text: statusText(payload.value) };
    case 'statusUpdate':
      return { kind: 'status', state: payload.value.status?.state, text: statusText(payload.value) };
    case 'artifactUpdate':
      return { kind: 'artifact', text: answerText({ artifacts: [payload.value.artifact!] } as Task) };
    default:
      return { kind: payload.$case, text: '' };
  }
}

describe('durable-agent a2a: agents over A2A, tasks as runs', () => {
  let env: AgentTestEnv;
  let kit: A2aKit;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents, byModel: a2aScripts });
    kit = new A2aKit(env, agents);
  });
  afterAll(async () => {
    await kit?.stop();
    await env?.stop();
  });

  test("the card describes the agent and its tools; a message starts a run and the reply is the scripted model's answer; GetTask reads it from the run", async () => {
    const server = await kit.serve();
    const client = await kit.clientOf(server, 'a2a-helper');
    const card = await client.getAgentCard();
    expect(card.name).toBe('a2a-helper');
    expect(card.description).toContain('Looks orders up.');
    expect(card.description).toContain('"approve"');
    expect(card.skills.map((skill) => skill.name)).toEqual(['a2a-helper', 'lookup']);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`)).toEqual([
      `JSONRPC 1.0 ${server.url}/agents/a2a-helper/`,
      `JSONRPC 0.3 ${server.url}/agents/a2a-helper/`,
    ]);

    const task = asTask(await client.sendMessage(messageRequest('Where is ORD-1?')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe('Helped: ORD-1 is on its way');
    expect(statusText(task)).toBe('Helped: ORD-1 is on its way');
    expect(task.id).toMatch(/^a2a~a2a-helper~ctx-[0-9a-f]{12}~[0-9a-f]{10}$/);
    expect(task.id).toContain(`~${task.contextId}~`);
    // The task is the run: Temporal has it, with the same answer.
    expect(await env.client.get(task.id).result()).toMatchObject({ status: 'completed', output: 'Helped: ORD-1 is on its way' });

    const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.history.map((message) => statusText({ status: { state: 0, message, timestamp: '' } }))).toEqual(['Where is ORD-1?', 'Helped: ORD-1 is on its way']);
    expect(answerText(got)).toBe('Helped: ORD-1 is on its way');
    expect((await client.getTask({ tenant: '', id: task.id, historyLength: 1 })).history).toHaveLength(1);
    // A task of another agent, or no task at all, is not found at this agent.
    await expect(client.getTask({ tenant: '', id: 'a2a~a2a-refunds~ctx-1~abc', historyLength: undefined })).rejects.toThrow(/not a task of the agent 'a2a-helper'/);
    // Its id with the last character changed (the id ends in random hex, so a fixed '0' could be the same id).
    const otherId = `${task.id.slice(0, -1)}${task.id.endsWith('0') ? '1' : '0'}`;
    await expect(client.getTask({ tenant: '', id: otherId, historyLength: undefined })).rejects.toThrow(/Task not found/);
  });

  test('a streamed task cut off mid-stream is taken up again with SubscribeToTask, on a new server: the rest of its events, its answer and its end', async () => {
    const server = await kit.serve();
    const first = await kit.clientOf(server, 'a2a-stepper');
    const before: ReturnType<typeof describe_>[] = [];
    let taskId = '';
    for await (const event of first.sendMessageStream(messageRequest('Do the steps'))) {
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
      before.push(describe_(event));
      if (before.some((e) => e.text.includes('"n":1'))) break;
    }
    expect(before[0]).toMatchObject({ kind: 'task' });
    expect(before.every((e) => e.state === TaskState.TASK_STATE_WORKING || e.state === TaskState.TASK_STATE_SUBMITTED)).toBe(true);
    expect((await env.client.get(taskId).execution()).status).toBe('RUNNING');
    // The server goes away mid-task and another one takes over: nothing of the task was in the first.
    await kit.close(server);
    const client = await kit.clientOf(await kit.serve(), 'a2a-stepper');

    const after: ReturnType<typeof describe_>[] = [];
    for await (const event of client.resubscribeTask({ tenant: '', id: taskId })) after.push(describe_(event));
    expect(after[0]).toMatchObject({ kind: 'task', state: TaskState.TASK_STATE_WORKING });
    expect(after.some((e) => e.kind === 'status' && e.text.includes('"n":4'))).toBe(true);
    expect(before.some((e) => e.text.includes('"n":4'))).toBe(false);
    expect(after.slice(-2)).toEqual([
      { kind: 'artifact', text: 'All 4 steps done' },
      { kind: 'status', state: TaskState.TASK_STATE_COMPLETED, text: 'All 4 steps done' },
    ]);
    // Once it has ended there is nothing to subscribe to.
    await expect(async () => {
      for await (const _ of client.resubscribeTask({ tenant: '', id: taskId })) void _;
    }).rejects.toThrow(/has ended \(completed\)/);
  });

  test("a streamed task gives the model's text as it is written (a draft artifact appended to chunk by chunk), then the answer", async () => {
    const client = await kit.clientOf(await kit.serve(), 'a2a-writer');
    const drafts = new Map<string, string>();
    const order: string[] = [];
    for await (const event of client.sendMessageStream(messageRequest('Write it'))) {
      if (event.payload?.$case !== 'artifactUpdate') continue;
      const { artifact, append } = event.payload.value;
      const text = answerText({ artifacts: [artifact!] } as Task);
      order.push(artifact!.artifactId);
      if (artifact!.artifactId === 'answer') expect(text).toBe(WRITER_ANSWER);
      else drafts.set(artifact!.artifactId, (append ? (drafts.get(artifact!.artifactId) ?? '') : '') + text);
    }
    expect([...drafts.values()]).toEqual([WRITER_ANSWER]);
    expect(order.at(-1)).toBe('answer');
    expect(order.filter((id) => id !== 'answer').length).toBeGreaterThan(0);
  });

  test('CancelTask cancels the run: the task is canceled at once and the run ends cancelled in Temporal', async () => {
    const server = await kit.serve();
    const client = await kit.clientOf(server, 'a2a-stepper');
    const started = asTask(await client.sendMessage(messageRequest('forever', {}, true)));
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const run = env.client.get(started.id);
    await waitFor(async () => ((await run.state()).currentStep.includes('step') ? true : undefined), 'the step to start');
    const cancelled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await waitFor(async () => ((await run.execution()).status === 'CANCELLED' ? true : undefined), 'the run to end cancelled');
    expect((await client.getTask({ tenant: '', id: started.id, historyLength: 0 })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ tenant: '', id: started.id, metadata: undefined })).rejects.toThrow(/has already ended \(canceled\)/);
  });

  test('an approval makes the task input-required; a message that is no answer is refused; across a restart of the server the next message approves it', async () => {
    const first = await kit.serve();
    const task = asTask(await (await kit.clientOf(first, 'a2a-refunds')).sendMessage(messageRequest('Refund ORD-1')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(task)).toMatch(
      /^Waiting for approval: refund \{"order_id":"ORD-1","amount":30\} \(refund requires approval \(ask rule 'refund'\)\) \[callId \S+\]\.\nTo answer, reply "approve" or "deny: reason" \(or a data part/,
    );
    const data = task.status?.message?.parts.find((part) => part.content?.$case === 'data')?.content?.value;
    expect(data).toEqual({ waiting: [expect.objectContaining({ kind: 'approval', tool: 'refund', input: { order_id: 'ORD-1', amount: 30 } })] });
    await kit.close(first);

    const second = await kit.serve();
    const client = await kit.clientOf(second, 'a2a-refunds');
    const again = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(again.contextId).toBe(task.contextId);

    await expect(client.sendMessage(messageRequest('maybe later', { taskId: task.id }))).rejects.toThrow(/Not an answer for task .*neither "approve" nor "deny[\s\S]*Nothing was changed/);
    await expect(client.sendMessage(messageRequest([dataPart({ approve: 'yes' })], { taskId: task.id }))).rejects.toThrow(/its data part is not/);
    expect((await env.client.get(task.id).state()).pending).toHaveLength(1);

    const done = asTask(await client.sendMessage(messageRequest('approve', { taskId: task.id })));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(done)).toBe('Refunds: refunded 30 on ORD-1');
    await expect(client.sendMessage(messageRequest('approve', { taskId: task.id }))).rejects.toThrow(/has ended \(completed\) and takes no more messages/);
  });

  test('a streamed task ends its stream at input-required; a data part denies the call and the stream goes on to the answer', async () => {
    const server = await kit.serve();
    const client = await kit.clientOf(server, 'a2a-refunds');
    const first: ReturnType<typeof describe_>[] = [];
    let taskId = '';
    let contextId = '';
    for await (const event of client.sendMessageStream(messageRequest('Refund ORD-1', { contextId: 'my-context.1' }))) {
      if (event.payload?.$case === 'task') ({ id: taskId, contextId } = event.payload.value);
      first.push(describe_(event));
    }
    expect(contextId).toBe('my-context.1');
    expect(first.at(-1)).toMatchObject({ kind: 'status', state: TaskState.TASK_STATE_INPUT_REQUIRED });
    expect(first.at(-1)!.text).toContain('refund {"order_id":"ORD-1","amount":30}');

    const second: ReturnType<typeof describe_>[] = [];
    for await (const event of client.sendMessageStream(messageRequest([dataPart({ deny: 'not today' })], { taskId, contextId }))) second.push(describe_(event));
    expect(second.at(-1)).toEqual({ kind: 'status', state: TaskState.TASK_STATE_COMPLETED, text: 'Refunds: Permission denied by user: not today' });
    const decided = (await env.client.get(taskId).eventsAfter(0)).find((event) => event.type === 'permission_decided');
    expect(decided).toMatchObject({ behavior: 'deny', by: 'user' });
  });

  test("a new task in a context takes on the conversation of the context's last task (a fork of its run); a message to a working task steers it", async () => {
    const server = await kit.serve();
    const client = await kit.clientOf(server, 'a2a-helper');
    const first = asTask(await client.sendMessage(messageRequest('Where is ORD-1?', { contextId: 'chat-7' })));
    const second = asTask(await client.sendMessage(messageRequest('And once more?', { contextId: 'chat-7' })));
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe('chat-7');
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const said = second.history.map((message) => statusText({ status: { state: 0, message, timestamp: '' } }));
    // The model read the first exchange: its lookup again is the run's repeat of the first task's.
    expect(said.slice(0, 3)).toEqual(['Where is ORD-1?', 'Helped: ORD-1 is on its way', 'And once more?']);
    expect(said[3]).toMatch(/^Helped: This call repeats call \S+, which already ran with the same arguments[\s\S]*ORD-1 is on its way$/);
    expect((await env.client.get(second.id).state()).fork).toMatchObject({ workflowId: first.id });
    // Named explicitly, the task referenced is the one taken on.
    const third = asTask(await client.sendMessage({ ...messageRequest('From the first', { contextId: 'chat-7' }), message: { ...messageRequest('From the first', { contextId: 'chat-7' }).message!, referenceTaskIds: [first.id] } }));
    expect((await env.client.get(third.id).state()).fork).toMatchObject({ workflowId: first.id });
    expect(third.history).toHaveLength(4);

    const stepper = await kit.clientOf(server, 'a2a-stepper');
    const working = asTask(await stepper.sendMessage(messageRequest('Do the steps', {}, true)));
    await stepper.sendMessage(messageRequest('Hurry up, please', { taskId: working.id }, true));
    const added = (await env.client.get(working.id).eventsAfter(0)).find((event) => event.type === 'input_added');
    expect(added).toMatchObject({ text: 'Hurry up, please', addedBy: 'a2a client' });
    await env.client.get(working.id).cancel();
  });

  test("an external tool's wait is input-required too; a data part { result } submits its result, an approval is refused", async () => {
    const server = await kit.serve();
    const client = await kit.clientOf(server, 'a2a-weigher');
    const task = asTask(await client.sendMessage(messageRequest('Weigh P-7')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(task)).toMatch(/^Waiting for the result of the external tool weigh \{"parcel":"P-7"\}[\s\S]*reply with a data part \{ "result": "\.\.\." \}/);
    await expect(client.sendMessage(messageRequest('approve', { taskId: task.id }))).rejects.toThrow(/waits for a result: send result/);
    const done = asTask(await client.sendMessage(messageRequest([dataPart({ result: '2.5 kg' })], { taskId: task.id })));
    expect(answerText(done)).toBe('Weighed: 2.5 kg');
  });

  test("a v0.3 client (the SDK's legacy JSON-RPC transport: message/send, tasks/get) is served by the same handler", async () => {
    const server = await kit.serve();
    const legacy = new LegacyJsonRpcTransport({ endpoint: server.agentUrls['a2a-helper']! });
    const task = asTask(await legacy.sendMessage(messageRequest('Where is ORD-1?')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe('Helped: ORD-1 is on its way');
    const got = await legacy.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(answerText(got)).toBe('Helped: ORD-1 is on its way');
  });

  test('with a token, calls without it are refused (401) while the card says a bearer token is needed; with it they pass', async () => {
    const server = await kit.serve({ token: 's3cret-token' });
    const response = await fetch(server.agentUrls['a2a-helper']!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }) });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const anonymous = await kit.clientOf(server, 'a2a-helper');
    expect(Object.keys((await anonymous.getAgentCard()).securitySchemes)).toEqual(['bearer']);
    await expect(anonymous.sendMessage(messageRequest('Where is ORD-1?'))).rejects.toThrow(/Unauthorized: send Authorization: Bearer/);
    const client = await kit.clientOf(server, 'a2a-helper', 's3cret-token');
    expect(answerText(asTask(await client.sendMessage(messageRequest('Where is ORD-1?'))))).toBe('Helped: ORD-1 is on its way');
    // A browser page of another origin is refused before anything else.
    const page = await fetch(server.agentUrls['a2a-helper']!, { method: 'POST', headers: { origin: 'https://evil.example', authorization: 'Bearer s3cret-token' }, body: '{}' });
    expect(page.status).toBe(403);
  });

  test('on loopback, a request for another Host is refused (DNS rebinding), but for the --public-url host it is taken; malformed bodies get JSON-RPC errors', async () => {
    const server = await kit.serve({ publicUrl: 'https://agents.example.com' });
    expect(server.agentUrls['a2a-helper']).toBe('https://agents.example.com/agents/a2a-helper/');
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const call = httpRequest({ host: '127.0.0.1', port: server.port, path: '/agents/a2a-helper/.well-known/agent-card.json', headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        });
        call.once('error', reject);
        call.end();
      });
    expect(await statusFor('rebound.example.net')).toBe(403);
    // What is not JSON, or not JSON-RPC, gets JSON-RPC's errors.
    const notJson = await fetch(`http://127.0.0.1:${server.port}/agents/a2a-helper/`, { method: 'POST', body: '{"jsonrpc":' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
    const notRpc = await fetch(`http://127.0.0.1:${server.port}/agents/a2a-helper/`, { method: 'POST', headers: { 'A2A-Version': '1.0' }, body: '{"hello":1}' });
    expect(await notRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/Invalid JSON-RPC Request/) } });
    expect(await statusFor('agents.example.com')).toBe(200);
    expect(await statusFor(`localhost:${server.port}`)).toBe(200);
  });
});
