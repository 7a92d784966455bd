import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../../src/common/events';
import { startMcpServerKit, textOf as text, textsOf, type McpServerKit } from '../helpers/mcp-server-kit';
import { waitFor, waitForPending } from '../helpers/wait-for';

const seqOf = (events: AgentEvent[], type: AgentEvent['type']) => events.find((event) => event.type === type)!.seq;

describe('durable-agent mcp: fork_run', () => {
  let kit: McpServerKit;
  const env = () => kit.env;

  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  /** A refund run of the library, approved and finished: the run forks are made of. */
  async function refunded() {
    const run = await env().client.start('mcp-refunds', { prompt: 'Refund ORD-1' });
    const { pending } = await waitForPending(run);
    await run.approve(pending[0]!.callId);
    expect((await run.result()).output).toBe('Refunds: refunded 30 on ORD-1');
    return { run, events: await run.eventsAfter(0) };
  }

  test('after the refund, on another model: the fork is followed to its answer, the refund is not run again, and the answer names the fork and its origin', async () => {
    const { run, events } = await refunded();
    const client = await kit.overStdio();
    const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'fork_run')!;
    expect(tool.execution).toEqual({ taskSupport: 'optional' });
    expect(tool.inputSchema.required).toEqual(['runId', 'at']);
    const at = seqOf(events, 'tool_call_finished');
    const progress: string[] = [];
    const result = await client.callTool({ name: 'fork_run', arguments: { runId: run.workflowId, at, model: 'mcp-helper' } }, CallToolResultSchema, {
      onprogress: (update) => progress.push(update.message ?? ''),
    });
    expect(result.isError).toBeFalsy();
    // The helper's script reads the refund's result: that model answered, from the run's conversation.
    expect(text(result)).toBe('Helped: refunded 30 on ORD-1');
    const forkId = (result.structuredContent as { runId: string }).runId;
    expect(forkId).toMatch(/^mcp-fork-[0-9a-f]{10}$/);
    expect(result.structuredContent).toMatchObject({ status: 'completed', forkOf: run.workflowId, at });
    expect(textsOf(result).at(-1)).toBe(`Fork ${forkId} of ${run.workflowId} after event ${at}.`);
    expect(progress.some((line) => line.includes(`fork of ${run.workflowId} after its event ${at}, on model mcp-helper`))).toBe(true);
    const forkEvents = await env().client.get(forkId).eventsAfter(0);
    expect(forkEvents.some((event) => event.type === 'tool_call_started' || event.type === 'permission_requested')).toBe(false);
  });

  test('at 0 with an edited prompt: the approval the fork asks for is an elicitation, as for an agent tool', async () => {
    const { run } = await refunded();
    const asked: string[] = [];
    const client = await kit.overStdio(async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { decision: 'approve' } };
    });
    const result = await client.callTool({ name: 'fork_run', arguments: { runId: run.workflowId, at: 0, message: 'Refund ORD-1 again, please' } });
    expect(text(result)).toBe('Refunds: refunded 30 on ORD-1');
    expect(asked).toHaveLength(1);
    const forkId = (result.structuredContent as { runId: string }).runId;
    const { messages } = await env().client.get(forkId).result();
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['Refund ORD-1 again, please']);
  });

  test('as a task: the task is the fork, and its result the fork\'s answer', async () => {
    const { run, events } = await refunded();
    const client = await kit.overStdio();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'fork_run', arguments: { runId: run.workflowId, at: seqOf(events, 'tool_call_finished') }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    expect(created.task.taskId).toMatch(/^mcp-fork-/);
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(text(result)).toBe('Refunds: refunded 30 on ORD-1');
    expect((await env().client.get(created.task.taskId).state()).fork).toEqual({ workflowId: run.workflowId, at: seqOf(events, 'tool_call_finished'), agent: 'mcp-refunds' });
  });

  test("a conversation's fork is answered at once with its id; the fork answers the message", async () => {
    const conversation = env().client.conversation('mcp-helper', { sessionId: `mcp-fork-${Date.now()}` });
    expect((await conversation.send('Where is ORD-1?')).output).toBe('Helped: ORD-1 is on its way');
    const at = seqOf(await conversation.run.eventsAfter(0), 'turn_finished');
    const client = await kit.overStdio();
    const result = await client.callTool({ name: 'fork_run', arguments: { runId: conversation.run.workflowId, at, message: 'And again?' } });
    expect(result.structuredContent).toMatchObject({ forkOf: conversation.run.workflowId, at, conversation: true });
    const forkId = (result.structuredContent as { runId: string }).runId;
    const answered = await waitFor(async () => (await env().client.get(forkId).eventsAfter(0)).find((event) => event.type === 'turn_finished'), 'the fork answers');
    // Its lookup repeats the one of the conversation's first turn, which the fork keeps: not run again.
    expect(answered).toMatchObject({ turn: 2, output: expect.stringContaining('it was not run again. Its result: ORD-1 is on its way') });
    const asTask = client.request(
      { method: 'tools/call', params: { name: 'fork_run', arguments: { runId: conversation.run.workflowId, at }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    await expect(asTask).rejects.toThrow(/is a conversation, whose fork waits for its next message/);
    await conversation.end();
    await env().client.get(forkId).cancel();
  });

  test('a refused fork, bad arguments and an unknown run are tool errors with the reason; nothing starts', async () => {
    const { run, events } = await refunded();
    const last = events.at(-1)!.seq;
    const client = await kit.overStdio();
    const refused = await client.callTool({ name: 'fork_run', arguments: { runId: run.workflowId, at: last + 1 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(`Not forked: run ${run.workflowId} has no event ${last + 1}: its events go up to ${last}. Nothing was started.`);
    const empty = await client.callTool({ name: 'fork_run', arguments: { runId: run.workflowId, at: 1, message: '   ' } });
    expect(text(empty)).toBe('Invalid arguments for fork_run: message: message must not be empty');
    const negative = await client.callTool({ name: 'fork_run', arguments: { runId: run.workflowId, at: -1, prompt: 'x' } });
    expect(text(negative)).toBe("Invalid arguments for fork_run: at: Number must be greater than or equal to 0; unknown field(s) 'prompt'");
    const unknown = await client.callTool({ name: 'fork_run', arguments: { runId: 'no-such-run', at: 1 } });
    expect(text(unknown)).toBe("No run 'no-such-run' was found.");
    await expect(
      client.request({ method: 'tools/call', params: { name: 'fork_run', arguments: { runId: run.workflowId, at: last + 1 }, task: { ttl: 1000 } } }, CreateTaskResultSchema),
    ).rejects.toThrow(`has no event ${last + 1}`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await env().client.list({ query: `AgentForkOf = '${run.workflowId}'` })).toEqual([]);
  });
});
