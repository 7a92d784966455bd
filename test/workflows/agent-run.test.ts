import { WorkflowFailedError } from '@temporalio/client';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { ApplicationFailure } from '@temporalio/common';
import { defineAgent } from '../../src/toolkit/define-agent';
import { DEMO_PROMPT, ecommerceAgent } from '../../src/demo/ecommerce-agent';
import { addTool, boomTool, echoTool, throwsObjectTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { toolMessages } from '../helpers/tool-messages';
import { waitFor } from '../helpers/wait-for';

const mathAgent = defineAgent({
  name: 'math',
  instructions: 'You add numbers with the add tool.',
  tools: [addTool, echoTool, boomTool, throwsObjectTool],
  maxIters: 4,
});

describe('agentWorkflow on a real Temporal server', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [mathAgent, ecommerceAgent] });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test('a run with two tool calls completes with the tools\' real answers', async () => {
    env.model.setScript([
      {
        toolCalls: [
          { name: 'query_order', arguments: { order_id: 'ORD-2024-001' } },
          { name: 'track_logistics', arguments: { order_id: 'ORD-2024-001' } },
        ],
        usage: { promptTokens: 100, completionTokens: 20 },
      },
      { text: '您的订单 ORD-2024-001 正在运输中，位于杭州分拣中心。', usage: { promptTokens: 150, completionTokens: 30 } },
    ]);
    const run = await env.client.start('ecommerce-cs', { prompt: DEMO_PROMPT, userId: 'u-1001' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toContain('杭州分拣中心');
    expect(result.iterations).toBe(2);
    expect(result.usage).toEqual({ promptTokens: 250, completionTokens: 50, totalTokens: 300 });
    const tools = toolMessages(result.messages);
    expect(tools.map((t) => t.name)).toEqual(['query_order', 'track_logistics']);
    expect(JSON.parse(tools[0].content)).toMatchObject({ orderId: 'ORD-2024-001', trackingNumber: 'SF1234567890' });
    expect(JSON.parse(tools[1].content)).toMatchObject({ location: 'Hangzhou sorting center' });
    // The second model request carried both tool results, in call order.
    const second = env.model.requests.filter((r) => r.turnIndex === 1).at(-1)!;
    const toolRoles = second.body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(toolRoles).toEqual(result.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls?.map((c) => c.id) ?? [] : [])));
    await maybeRecordHistory(run, 'two-tool-calls');
  });

  test('invalid JSON arguments give the model an error result and the loop goes on', async () => {
    env.model.setScript([
      { toolCalls: [{ name: 'add', arguments: '{"a": 1, "b": ' }] },
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      'The sum is 3.',
    ]);
    const result = await (await env.client.start('math', { prompt: 'add 1 and 2' })).result();
    const [bad, good] = toolMessages(result.messages);
    expect(bad.state).toBe('error');
    expect(bad.content).toMatch(/Invalid arguments for tool 'add': the arguments are not valid JSON/);
    expect(good.content).toBe('3');
    expect(result.status).toBe('completed');
  });

  test('a tool that throws a plain object: the model reads the object as JSON, secrets redacted, never [object Object]', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'throws_object', arguments: {} }] }, 'The card was declined.']);
    const result = await (await env.client.start('math', { prompt: 'pay' })).result();
    expect(toolMessages(result.messages)[0]).toMatchObject({
      content: 'Error: Tool execution failed: {"code":"card_declined","detail":"insufficient funds","apiKey":"[redacted]","request":{"id":"req_42","authorization":"[redacted]"}}',
      state: 'error',
    });
    expect(JSON.stringify(result.messages)).not.toContain('sk-live');
  });

  test('a validation error lists each failing path, and the model corrects it', async () => {
    env.model.setScript([
      { toolCalls: [{ name: 'add', arguments: { a: 'one', b: 2.5 } }] },
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      'Done: 3.',
    ]);
    const run = await env.client.start('math', { prompt: 'add' });
    const result = await run.result();
    const [bad, good] = toolMessages(result.messages);
    expect(bad.content).toContain("Parameter validation failed for tool 'add'");
    expect(bad.content).toMatch(/- \/a: Expected number, received string/);
    expect(bad.content).toMatch(/- \/b: Expected integer, received float/);
    expect(bad.content).toContain('Please correct the parameters and try again.');
    expect(good.content).toBe('3');
    await maybeRecordHistory(run, 'validation-error-corrected');
  });

  test('an unknown tool gets "Tool not found"', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'multiply', arguments: { a: 2, b: 3 } }] }, 'I cannot multiply.']);
    const result = await (await env.client.start('math', { prompt: 'multiply' })).result();
    expect(toolMessages(result.messages)[0]).toMatchObject({ content: 'Error: Tool not found: multiply', state: 'error' });
    expect(result.output).toBe('I cannot multiply.');
  });

  test('a tool that throws becomes a result, not a failed run', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'boom', arguments: {} }] }, 'The tool failed.']);
    const result = await (await env.client.start('math', { prompt: 'boom' })).result();
    expect(toolMessages(result.messages)[0]).toMatchObject({
      content: 'Error: Tool execution failed: the boom tool exploded',
      state: 'error',
    });
    expect(result.status).toBe('completed');
  });

  test('model 500 twice, then success: Temporal retries the model call', async () => {
    env.model.setScript([{ text: 'Recovered.', faults: [{ status: 500, times: 2 }] }]);
    const run = await env.client.start('math', { prompt: 'hello' });
    const result = await run.result();
    expect(result.output).toBe('Recovered.');
    expect(env.model.requests.filter((r) => r.turnIndex === 0).length).toBeGreaterThanOrEqual(3);
    await maybeRecordHistory(run, 'model-500-retried');
  });

  test('model 400 fails fast with a clear, non-retryable error', async () => {
    env.model.setScript([{ text: 'never', faults: [{ status: 400, times: 10, body: { error: { message: 'bad tool schema' } } }] }]);
    const before = env.model.requests.length;
    const run = await env.client.start('math', { prompt: 'hello' });
    const error = await run.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('Model.BadRequest');
    expect(cause.message).toMatch(/scripted-model/);
    expect(cause.message).toMatch(/400/);
    expect(env.model.requests.length - before).toBe(1);
    expect((await run.state()).status).toBe('failed');
  });

  test('max iterations: the last calls are cancelled and a summary is produced without tools', async () => {
    env.model.setScript((request, info) =>
      request.tools?.length ? { toolCalls: [{ name: 'echo', arguments: { text: `step ${info.turnIndex}` } }] } : 'Summary: I echoed 3 times.',
    );
    const run = await env.client.start('math', { prompt: 'echo forever' });
    const result = await run.result();
    expect(result.status).toBe('max_iterations');
    expect(result.iterations).toBe(4);
    expect(result.output).toBe('Summary: I echoed 3 times.');
    const tools = toolMessages(result.messages);
    expect(tools.filter((t) => t.state === 'success')).toHaveLength(3);
    expect(tools.at(-1)).toMatchObject({
      state: 'cancelled',
      content: 'Error: Tool execution cancelled because maximum iterations limit (4) was reached.',
    });
    const last = env.model.requests.at(-1)!;
    expect(last.body.tools ?? []).toHaveLength(0);
    await maybeRecordHistory(run, 'max-iterations');
  });
});

describe('an agent no worker serves', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [mathAgent] });
  });
  afterAll(async () => env?.stop());

  // A fleet may start the worker that serves it later (test/worker/mixed-fleet.test.ts); after
  // SERVING_WORKER_TIMEOUT the run fails with Agent.NoWorkerServes (test/workflows/time-skipping.test.ts).
  test('the run waits for a worker that serves it, its details naming the agent and what this worker serves', async () => {
    const run = await env.client.start('no-such-agent', { prompt: 'hello' });
    const details = await waitFor(async () => {
      const text = (await run.handle.query(workflowMetadataQuery)).currentDetails ?? '';
      return text.includes("waiting for a worker that serves agent 'no-such-agent'") ? text : undefined;
    }, 'the run to say what it waits for', 30_000);
    expect(details).toContain('math');
    expect((await run.execution()).status).toBe('RUNNING');
    expect(env.model.requests).toHaveLength(0);
    await run.handle.terminate('test over');
  });
});
