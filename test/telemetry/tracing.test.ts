import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { defineAgent } from '../../src/toolkit/define-agent';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { AgentClient } from '../../src/client/agent-client';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startTracedWorker, tracedClient } from './traced-worker';

const shop = defineAgent({ name: 'traced-shop', instructions: 'Look up, then refund.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });

const USAGE = [
  { promptTokens: 120, completionTokens: 30 },
  { promptTokens: 210, completionTokens: 12 },
];

function scriptTwoToolsThenAnswer(model: ScriptedModelServer): void {
  model.setScript((_req, info) =>
    info.turnIndex === 0
      ? {
          toolCalls: [
            { name: 'lookup', arguments: { key: 'ORD-1' } },
            { name: 'refund', arguments: { order_id: 'ORD-1', amount: 30 } },
          ],
          usage: USAGE[0],
        }
      : { text: `done: ${info.toolResults.map((r) => r.content).join(' | ')}`, usage: USAGE[1] },
  );
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = named(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};
const parentOf = (spans: ReadableSpan[], span: ReadableSpan) => spans.find((s) => s.spanContext().spanId === span.parentSpanId);

interface TracedRun {
  /** The spans of the run's trace (the client's start and everything under it). */
  spans: ReadableSpan[];
  /** Every span exported, the client's queries and update (their own traces) included. */
  all: ReadableSpan[];
  workflowId: string;
}

/** Two tool calls, one of which waits for approval; meanwhile the worker is replaced, so the new one replays the run. */
async function runWithApproval(options: { captureContent?: boolean }): Promise<TracedRun> {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const model = await startScriptedModelServer({});
  scriptTwoToolsThenAnswer(model);
  const taskQueue = uniqueTaskQueue('traced');
  const workerOptions = { agents: [shop], taskQueue, baseURL: model.baseURL, spanProcessor: processor, ...options };
  let worker = await startTracedWorker(workerOptions);
  let client: AgentClient | undefined;
  try {
    client = await tracedClient(taskQueue, processor);
    const run = await client.start('traced-shop', { prompt: 'Where is ORD-1? Refund it.' });
    const { pending } = await waitForPending(run, 1);
    await worker.stop();
    worker = await startTracedWorker(workerOptions);
    await run.approve(pending[0]!.callId);
    const result = await run.result();
    expect(result.output).toBe('done: value of ORD-1 | refunded 30 on ORD-1');
    // The workflow's spans leave the sandbox through a sink after the last workflow task.
    const spans = await waitFor(async () => {
      const finished = exporter.getFinishedSpans();
      return finished.some((s) => s.name === 'RunWorkflow:agentWorkflow') ? finished : undefined;
    }, 'the RunWorkflow span');
    const traceId = one(spans, 'StartWorkflow:agentWorkflow').spanContext().traceId;
    return { spans: spans.filter((s) => s.spanContext().traceId === traceId), all: spans, workflowId: run.workflowId };
  } finally {
    await worker.stop();
    await client?.close();
    await model.close();
  }
}

describe('tracing', () => {
  let plain: TracedRun;
  beforeAll(async () => {
    plain = await runWithApproval({});
  });

  test('client, workflow and activity spans form one tree, each exported once despite the replays', () => {
    const { spans } = plain;
    const ids = plain.all.map((s) => s.spanContext().spanId);
    expect(new Set(ids).size).toBe(ids.length);

    const start = one(spans, 'StartWorkflow:agentWorkflow');
    const workflow = one(spans, 'RunWorkflow:agentWorkflow');
    expect(workflow.parentSpanId).toBe(start.spanContext().spanId);
    expect(workflow.attributes).toMatchObject({ temporalWorkflowId: plain.workflowId });

    // Scheduled by the workflow (two model calls, two tools), each run once on a worker.
    expect(named(spans, 'StartActivity:callModel')).toHaveLength(2);
    expect(named(spans, 'StartActivity:executeTool')).toHaveLength(2);
    for (const type of ['callModel', 'executeTool']) {
      const runs = named(spans, `RunActivity:${type}`);
      expect(runs).toHaveLength(2);
      for (const span of runs) {
        const scheduled = parentOf(spans, span)!;
        expect(scheduled.name).toBe(`StartActivity:${type}`);
        expect(scheduled.parentSpanId).toBe(workflow.spanContext().spanId);
      }
    }
    // Local activities (describe the agent, check the calls) too.
    expect(named(spans, 'RunActivity:describeAgent')).toHaveLength(1);
    expect(named(spans, 'RunActivity:prepareToolCalls')).toHaveLength(1);

    // The person's answer is a trace of its own: the client's update and the workflow's handling of it.
    const handled = one(plain.all, 'HandleUpdate:decide');
    expect(parentOf(plain.all, handled)?.name).toBe('StartWorkflowUpdate:decide');
    // Untraced in the workflow (their span ids would repeat or shift on replay); the client's spans stand for them.
    expect(plain.all.filter((s) => /^(HandleQuery|ValidateUpdate):/.test(s.name))).toEqual([]);
    expect(named(plain.all, 'QueryWorkflow:state').length).toBeGreaterThan(0);
  });

  test('each model call is a `chat {model}` span under its activity, with the GenAI attributes and the model’s token counts', () => {
    const { spans } = plain;
    const chats = named(spans, 'chat scripted-model');
    expect(chats).toHaveLength(2);
    for (const chat of chats) expect(parentOf(spans, chat)?.name).toBe('RunActivity:callModel');
    const byIteration = [...chats].sort((a, b) => Number(a.attributes['durable_agent.iteration']) - Number(b.attributes['durable_agent.iteration']));
    byIteration.forEach((chat, i) => {
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'scripted-model',
        'gen_ai.response.model': 'scripted-model',
        'gen_ai.usage.input_tokens': USAGE[i]!.promptTokens,
        'gen_ai.usage.output_tokens': USAGE[i]!.completionTokens,
        'gen_ai.agent.name': 'traced-shop',
      });
      expect(chat.kind).toBe(2 /* SpanKind.CLIENT */);
    });
  });

  test('each tool call is an `execute_tool {tool}` span under its activity, with the call id and the outcome', () => {
    const { spans } = plain;
    const lookup = one(spans, 'execute_tool lookup');
    const refund = one(spans, 'execute_tool refund');
    for (const span of [lookup, refund]) expect(parentOf(spans, span)?.name).toBe('RunActivity:executeTool');
    expect(lookup.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call_0_0',
      'gen_ai.tool.description': 'Look something up.',
      'durable_agent.tool.outcome': 'success',
      'gen_ai.conversation.id': plain.workflowId,
    });
    expect(refund.attributes).toMatchObject({ 'gen_ai.tool.name': 'refund', 'gen_ai.tool.call.id': 'call_0_1', 'durable_agent.tool.outcome': 'success' });
  });

  test('permission decisions are span events, each once: rules allow the lookup and ask for the refund, the person allows it', () => {
    // The rules decided on the first worker; the span was exported by the second, whose replay rebuilt them.
    const events = plain.spans.flatMap((span) =>
      span.events.filter((e) => e.name === 'durable_agent.permission').map((e) => ({ span: span.name, ...e.attributes })),
    );
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ span: 'RunWorkflow:agentWorkflow', 'gen_ai.tool.name': 'lookup', 'durable_agent.permission.decision': 'allow', 'durable_agent.permission.by': 'rules' }),
        expect.objectContaining({ span: 'RunWorkflow:agentWorkflow', 'gen_ai.tool.name': 'refund', 'durable_agent.permission.decision': 'ask', 'durable_agent.permission.by': 'rules' }),
        expect.objectContaining({ span: 'RunWorkflow:agentWorkflow', 'gen_ai.tool.name': 'refund', 'durable_agent.permission.decision': 'allow', 'durable_agent.permission.by': 'user' }),
      ]),
    );
    expect(events).toHaveLength(3);
  });

  test('prompts, replies, tool arguments and results stay off the spans by default', () => {
    const content = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];
    for (const span of plain.spans) for (const key of content) expect(span.attributes[key]).toBeUndefined();
  });

  test('with captureContent they are recorded in the conventions’ message format', async () => {
    const { spans } = await runWithApproval({ captureContent: true });
    const [first] = named(spans, 'chat scripted-model').sort((a, b) => Number(a.attributes['durable_agent.iteration']) - Number(b.attributes['durable_agent.iteration']));
    expect(JSON.parse(String(first!.attributes['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: expect.stringContaining('Look up, then refund.') }]);
    expect(JSON.parse(String(first!.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Where is ORD-1? Refund it.' }] },
    ]);
    expect(JSON.parse(String(first!.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_call',
        parts: [
          { type: 'tool_call', id: 'call_0_0', name: 'lookup', arguments: { key: 'ORD-1' } },
          { type: 'tool_call', id: 'call_0_1', name: 'refund', arguments: { order_id: 'ORD-1', amount: 30 } },
        ],
      },
    ]);
    const refund = one(spans, 'execute_tool refund');
    expect(JSON.parse(String(refund.attributes['gen_ai.tool.call.arguments']))).toEqual({ order_id: 'ORD-1', amount: 30 });
    expect(refund.attributes['gen_ai.tool.call.result']).toBe('refunded 30 on ORD-1');
  });
});
