import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { killProcess } from '../helpers/crash-worker';
import { startMcpServerKit, textOf as text, type ElicitHandler, type McpServerKit, LISTED_TOOLS } from '../helpers/mcp-server-kit';
import { waitFor } from '../helpers/wait-for';

describe('durable-agent mcp: agents as MCP tools, runs as MCP tasks, approvals as elicitations', () => {
  let kit: McpServerKit;
  const env = () => kit.env;
  const overStdio = (elicit?: ElicitHandler) => kit.overStdio(elicit);
  const overHttp = (url: string, token?: string) => kit.overHttp(url, token);
  const httpServer = (extra: string[] = []) => kit.httpServer(extra);

  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  test('over stdio: the agents and the run tools are listed; an agent tool runs the agent to its answer, with progress', async () => {
    const client = await overStdio();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['add_input', 'approve_call', 'cancel_run', 'deny_call', 'fork_run', 'list_pending', 'list_runs', 'mcp-budget', 'mcp-helper', 'mcp-invoice', 'mcp-refunds', 'run_events', 'run_state', 'submit_result'].sort(),
    );
    const helper = tools.find((tool) => tool.name === 'mcp-helper')!;
    expect(helper.description).toBe("The 'mcp-helper' agent, run durably (a Temporal workflow). Looks orders up.");
    expect(helper.execution).toEqual({ taskSupport: 'optional' });
    expect(helper.inputSchema.required).toEqual(['prompt']);

    const progress: string[] = [];
    const result = await client.callTool({ name: 'mcp-helper', arguments: { prompt: 'Where is ORD-1?' } }, CallToolResultSchema, {
      onprogress: (update) => progress.push(update.message ?? ''),
    });
    expect(text(result)).toBe('Helped: ORD-1 is on its way');
    const runId = (result.structuredContent as { runId: string }).runId;
    expect(runId).toMatch(/^mcp-mcp-helper-[0-9a-f]{10}$/);
    expect(progress.some((line) => line.includes('▶ tool lookup {"order_id":"ORD-1"}'))).toBe(true);

    const state = await client.callTool({ name: 'run_state', arguments: { runId } });
    expect(state.structuredContent).toMatchObject({ agent: 'mcp-helper', status: 'completed', output: 'Helped: ORD-1 is on its way' });
  });

  test("an agent with a typed answer publishes its output schema and answers with structured content the client's SDK checks", async () => {
    const client = await overStdio();
    const { tools } = await client.listTools();
    const invoice = tools.find((tool) => tool.name === 'mcp-invoice')!;
    expect(invoice.outputSchema?.required).toEqual(['runId', 'status', 'output', 'data', 'iterations', 'usage']);
    expect(invoice.outputSchema?.properties?.data).toEqual({
      type: 'object',
      properties: { total: { type: 'number' }, currency: { type: 'string' } },
      required: ['total', 'currency'],
      additionalProperties: false,
    });
    expect(tools.find((tool) => tool.name === 'mcp-helper')!.outputSchema).toBeUndefined();
    const result = await client.callTool({ name: 'mcp-invoice', arguments: { prompt: 'Read invoice 9' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', data: { total: 42.5, currency: 'EUR' } });
    expect(JSON.parse(text(result))).toEqual({ total: 42.5, currency: 'EUR' });
  });

  test('an approval is asked as an elicitation: approved with edited arguments', async () => {
    const asked: ElicitRequest[] = [];
    const client = await overStdio(async (request) => {
      asked.push(request);
      return { action: 'accept', content: { decision: 'approve', arguments: '{"order_id":"ORD-1","amount":12}', reason: 'partial refund' } };
    });
    const result = await client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } });
    expect(text(result)).toBe('Refunds: refunded 12 on ORD-1');
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params as unknown as { message: string; requestedSchema: { properties: { arguments: { default: string } } } };
    expect(params.message).toContain('refund with {"order_id":"ORD-1","amount":30}');
    expect(params.requestedSchema.properties.arguments.default).toBe('{"order_id":"ORD-1","amount":30}');
  });

  test('a budget reached is asked as an elicitation like an approval: the amount edited, the run goes on', async () => {
    const asked: ElicitRequest[] = [];
    const client = await overStdio(async (request) => {
      asked.push(request);
      return { action: 'accept', content: { decision: 'approve', arguments: '{"tokens": 4000}' } };
    });
    const result = await client.callTool({ name: 'mcp-budget', arguments: { prompt: 'Find ORD-2' } });
    expect(text(result)).toBe('Found: ORD-2 is on its way');
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params as unknown as { message: string; requestedSchema: { properties: { arguments: { default: string } } } };
    expect(params.message).toMatch(/budget of 1,500 tokens reached \(1,000 tokens spent, the next model call ≈ [\d,]+ tokens\): allow 1,000 tokens more\?/);
    expect(params.requestedSchema.properties.arguments.default).toBe('{"tokens":1000}');
    const runId = (result.structuredContent as { runId: string }).runId;
    expect(await env().client.get(runId).result()).toMatchObject({ status: 'completed', budget: { limit: { tokens: 5500 }, raised: { tokens: 4000 } } });
  });

  test('an elicitation answered with deny, and one whose edited arguments the tool refuses is asked again with the reason', async () => {
    const messages: string[] = [];
    const answers: ElicitResult[] = [
      { action: 'accept', content: { decision: 'approve', arguments: '{"order_id":"ORD-1","amount":-5}' } },
      { action: 'accept', content: { decision: 'deny', reason: 'not today' } },
    ];
    const client = await overStdio(async (request) => {
      messages.push((request.params as { message: string }).message);
      return answers.shift()!;
    });
    const result = await client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } });
    expect(text(result)).toBe('Refunds: Permission denied by user: not today');
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/The last answer was not taken: Edited input rejected: [\s\S]*amount/);
  });

  test('a declined elicitation leaves the call waiting: another client (here the library) answers it and the tool call ends', async () => {
    const declined: string[] = [];
    const client = await overStdio(async (request) => {
      declined.push((request.params as { message: string }).message);
      return { action: 'decline' };
    });
    const call = client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } });
    const [, runId, callId] = /\(run (\S+), call (\S+)\)/.exec(await waitFor(async () => declined[0], 'the elicitation'))!;
    expect((await env().client.get(runId!).state()).pending.map((p) => p.callId)).toEqual([callId]);
    await env().client.get(runId!).approve(callId!);
    expect(text(await call)).toBe('Refunds: refunded 30 on ORD-1');
    expect(declined).toHaveLength(1);
  });

  test('a task of a client with elicitation asks its approvals as elicitations', async () => {
    const client = await overStdio(async () => ({ action: 'accept', content: { decision: 'approve' } }));
    const created = await client.request(
      { method: 'tools/call', params: { name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(text(result)).toBe('Refunds: refunded 30 on ORD-1');
  });

  test('a client without elicitation gets a task; its status names the waiting call; approve_call answers it', async () => {
    const client = await overStdio();
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
      statuses.push(notification.params.status);
    });
    const created = await client.request(
      { method: 'tools/call', params: { name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect(taskId).toMatch(/^mcp-mcp-refunds-/);
    const waiting = await waitFor(async () => {
      const task = await client.experimental.tasks.getTask(taskId);
      return task.status === 'input_required' ? task : undefined;
    }, 'the task to need input');
    expect(waiting.statusMessage).toMatch(/waiting for approval: refund \{"order_id":"ORD-1","amount":30\}.*answer with approve_call or deny_call \{ "runId": "mcp-mcp-refunds-[0-9a-f]+", "callId": "call_0_0" \}/);

    // list_pending goes through visibility, which may show the run's waiting status a moment after the run itself does.
    const call = await waitFor(async () => {
      const pending = await client.callTool({ name: 'list_pending', arguments: {} });
      return (pending.structuredContent as { calls: { runId: string; callId: string; tool: string }[] }).calls.find((item) => item.runId === taskId);
    }, 'list_pending to show the call');
    expect(call).toMatchObject({ tool: 'refund', callId: 'call_0_0' });
    // The status notification comes while the run waits (the server reads the run's status each second).
    await waitFor(async () => (statuses.includes('input_required') ? true : undefined), 'the input_required notification');
    // A message for the run while it waits: its next model call reads it.
    const added = await client.callTool({ name: 'add_input', arguments: { runId: call.runId, text: 'and tell me when it arrives' } });
    expect(added).toMatchObject({ structuredContent: { runId: call.runId, position: 1, delivery: 'queued' } });
    const approved = await client.callTool({ name: 'approve_call', arguments: { runId: call.runId, callId: call.callId } });
    expect(approved.isError).toBeFalsy();
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(text(result)).toBe('Refunds: refunded 30 on ORD-1');
    const messages = (await env().client.get(taskId).result()).messages;
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['Refund ORD-1', 'and tell me when it arrives']);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
    // Status notifications followed the run while this connection lasted.
    await waitFor(async () => (statuses.includes('completed') ? true : undefined), 'the completed notification');
    expect(statuses).toContain('input_required');
    expect(statuses.indexOf('input_required')).toBeLessThan(statuses.indexOf('completed'));
  });

  test('over HTTP: a task outlives its client and its server process; another process gives its result', async () => {
    const first = await httpServer();
    const client = await overHttp(first.url);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    await client.close();
    await killProcess(first.process);

    const second = await httpServer();
    const again = await overHttp(second.url);
    await waitFor(async () => ((await again.experimental.tasks.getTask(taskId)).status === 'input_required' ? true : undefined), 'the task to need input');
    await again.callTool({ name: 'approve_call', arguments: { runId: taskId, callId: 'call_0_0' } });
    const result = await again.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(text(result)).toBe('Refunds: refunded 30 on ORD-1');
    const listed = await again.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
  });

  test('tasks/cancel answers the task cancelled, as tasks/get does from another server process; the run is cancelled', async () => {
    const client = await overStdio();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    await waitFor(async () => ((await client.experimental.tasks.getTask(taskId)).status === 'input_required' ? true : undefined), 'the task to need input');
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    // Nothing of the task lives in the first process: another one reads the run's cancel request.
    const other = await overStdio();
    expect((await other.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    const status = await waitFor(async () => {
      const name = (await env().client.get(taskId).handle.describe()).status.name;
      return name === 'RUNNING' ? undefined : name;
    }, 'the run to close');
    expect(status).toBe('CANCELLED');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    await expect(other.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('terminal status: cancelled') });
  });

  test('tasks/cancel of a finished task is the spec\'s error (-32602)', async () => {
    const client = await overStdio();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'mcp-helper', arguments: { prompt: 'Where is ORD-1?' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    expect(text(await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema))).toBe('Helped: ORD-1 is on its way');
    await expect(client.experimental.tasks.cancelTask(created.task.taskId)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('terminal status: completed') });
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe('completed');
  });

  test('bad input is a tool error with the reason; an unknown run is a clear error; an unknown tool a protocol error', async () => {
    const client = await overStdio();
    const bad = await client.callTool({ name: 'mcp-helper', arguments: { promt: 'typo' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe("Invalid arguments for mcp-helper: prompt: Required; unknown field(s) 'promt'");
    const badApprove = await client.callTool({ name: 'approve_call', arguments: { runId: 'x', callId: 5 } });
    expect(text(badApprove)).toBe('Invalid arguments for approve_call: callId: Expected string, received number');
    const injected = await client.callTool({ name: 'list_runs', arguments: { agent: "x' OR AgentName != 'x" } });
    expect(text(injected)).toBe('Invalid arguments for list_runs: agent: an agent name: letters, digits, ".", "_" or "-"');
    const listed = await client.callTool({ name: 'list_runs', arguments: { agent: 'mcp-helper', status: 'completed' } });
    expect((listed.structuredContent as { items: { agent: string; status: string }[] }).items.every((run) => run.agent === 'mcp-helper' && run.status === 'completed')).toBe(true);
    const unknown = await client.callTool({ name: 'run_state', arguments: { runId: 'no-such-run' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe("No run 'no-such-run' was found.");
    const notWaiting = await client.callTool({ name: 'approve_call', arguments: { runId: 'no-such-run', callId: 'c' } });
    expect(text(notWaiting)).toBe("No run 'no-such-run' was found.");
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool 'no_such_tool'/);
    await expect(
      client.request({ method: 'tools/call', params: { name: 'mcp-helper', arguments: {}, task: { ttl: 1000 } } }, CreateTaskResultSchema),
    ).rejects.toThrow(/Invalid arguments for mcp-helper: prompt: Required/);
  });

  test('over HTTP with --token: a request without the token is refused', async () => {
    const server = await httpServer(['--token', 'sesame']);
    const refused = await fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(refused.status).toBe(401);
    const client = await overHttp(server.url, 'sesame');
    expect((await client.listTools()).tools.length).toBe(LISTED_TOOLS);
  });
});
