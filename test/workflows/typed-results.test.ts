import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { AgentEvent } from '../../src/common/events';
import { FailureTypes } from '../../src/common/failures';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';

const invoiceSchema = z.object({
  total: z.number().nonnegative(),
  // A transform: the run keeps what the model wrote, the client's parse gives the transformed value.
  currency: z.string().length(3).transform((code) => code.toUpperCase()),
  lines: z.array(z.object({ item: z.string(), amount: z.number() })),
});

const invoiceReader = defineAgent({ name: 'typed-invoice', instructions: 'Read the invoice.', model: 'typed-invoice', output: invoiceSchema });
const strict = defineAgent({ name: 'typed-strict', instructions: 'Answer.', model: 'typed-strict', output: { schema: z.object({ ok: z.literal(true) }), maxRetries: 1 } });

const stock = defineTool({
  name: 'stock',
  description: 'What is in stock.',
  input: z.object({ shelf: z.string() }),
  readOnly: true,
  execute: ({ shelf }) => `shelf ${shelf}: apples, pears`,
});
const picker = defineAgent({
  name: 'typed-picker',
  instructions: 'Pick fruit.',
  model: 'typed-picker',
  tools: [stock],
  output: { schema: z.array(z.string()).min(1), via: 'tool' },
});
const buyer = defineAgent({ name: 'typed-buyer', instructions: 'Buy fruit.', model: 'typed-buyer', tools: [agentTool(picker)] });

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('typed results: defineAgent({ output }) on the dev server', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [invoiceReader, strict, picker, buyer] });
  });
  afterAll(async () => env?.stop());

  test('the response format asks for the schema; a wrong answer is fed back with its paths; result() gives the parsed, typed value', async () => {
    env.model.setScript(
      (_request, info) =>
        info.turnIndex === 0 ? '```json\n{"total": "12", "currency": "eur", "lines": []}\n```' : '{"total": 12, "currency": "eur", "lines": [{"item": "tea", "amount": 12}]}',
      { model: 'typed-invoice' },
    );
    const run = await env.client.start(invoiceReader, { prompt: 'Read invoice 7' });
    const result = await run.result();

    // Typed: `data.currency` is a string, upper-cased by the schema's transform on the client.
    const currency: string = result.data.currency;
    expect(currency).toBe('EUR');
    expect(result.data).toEqual({ total: 12, currency: 'EUR', lines: [{ item: 'tea', amount: 12 }] });
    expect(result.status).toBe('completed');
    // `output` is the answer's text as the model wrote it (its spacing too), not the value written out again.
    expect(result.output).toBe('{"total": 12, "currency": "eur", "lines": [{"item": "tea", "amount": 12}]}');
    // A client without the definition reads the answer as the model wrote it.
    expect((await env.client.get(run.workflowId).result()).data).toEqual({ total: 12, currency: 'eur', lines: [{ item: 'tea', amount: 12 }] });

    const requests = env.model.requests.filter((request) => request.model === 'typed-invoice');
    expect(requests).toHaveLength(2);
    const format = requests[0]!.body.response_format as { type: string; json_schema: { name: string; schema: { required: string[]; properties: Record<string, unknown> } } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('typed-invoice_answer');
    expect(format.json_schema.schema.required).toEqual(['total', 'currency', 'lines']);
    expect(format.json_schema.schema.properties.total).toEqual({ type: 'number', minimum: 0 });
    const feedback = String(requests[1]!.body.messages.at(-1)!.content);
    expect(feedback).toContain('does not fit the required output schema');
    expect(feedback).toContain('- /total: Expected number, received string');
    expect(ofType(await run.eventsAfter(0), 'answer_refused')).toEqual([
      expect.objectContaining({ iteration: 1, retry: 1, problems: ['/total: Expected number, received string'] }),
    ]);
    await maybeRecordHistory(run, 'typed-result-corrected');
  });

  test('answers that still do not fit after maxRetries fail the run, saying what is wrong', async () => {
    env.model.setScript((_request, info) => (info.turnIndex === 0 ? 'Sure! It is fine.' : '{"ok": false}'), { model: 'typed-strict' });
    const run = await env.client.start(strict, { prompt: 'Is it ok?' });
    const failure = await run.result().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe(FailureTypes.invalidOutput);
    expect(cause.message).toBe("The model's answer does not fit the agent's output schema (2 tries): /ok: Invalid literal value, expected true");
    const refused = ofType(await run.eventsAfter(0), 'answer_refused');
    expect(refused.map((event) => event.retry)).toEqual([1, 2]);
    expect(refused[0]!.problems[0]).toMatch(/^the answer is not JSON/);
    expect(env.model.requests.filter((request) => request.model === 'typed-strict')).toHaveLength(2);
  });

  test("through the final-answer tool: asked alone, other calls run first; a sub-agent's typed answer reaches its parent as JSON", async () => {
    env.model.setScript(
      (request, info) => {
        if (info.turnIndex === 0) {
          return { toolCalls: [{ name: 'stock', arguments: { shelf: 'A' } }, { name: 'final_answer', arguments: { answer: ['guess'] } }] };
        }
        return { toolCalls: [{ name: 'final_answer', arguments: { answer: ['apples'] } }] };
      },
      { model: 'typed-picker' },
    );
    env.model.setScript((_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'typed-picker', arguments: { task: 'Pick from shelf A' } }] } : `Bought ${info.toolResults[0]!.content}`), {
      model: 'typed-buyer',
    });
    const run = await env.client.start(buyer, { prompt: 'Buy fruit' });
    const result = await run.result();
    // The sub-agent's output, its final_answer call's arguments as sent, is the parent's tool result.
    expect(result.output).toBe('Bought {"answer":["apples"]}');

    const pickerRequests = env.model.requests.filter((request) => request.model === 'typed-picker');
    const first = pickerRequests[0]!.body;
    expect(first.tool_choice).toBe('required');
    expect(first.response_format).toBeUndefined();
    const finalTool = first.tools!.find((tool) => tool.function.name === 'final_answer')!;
    expect(finalTool.function.parameters).toEqual({
      type: 'object',
      properties: { answer: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['answer'],
      additionalProperties: false,
    });
    const results = pickerRequests[1]!.body.messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
    expect(results).toEqual(['shelf A: apples, pears', expect.stringContaining('call final_answer alone')]);

    const child = env.client.get(`${run.workflowId}/call_0_0`, picker);
    const childResult = await child.result();
    expect(childResult.data).toEqual(['apples']);
    expect(childResult.output).toBe('{"answer":["apples"]}');
    expect(childResult.messages.at(-1)).toEqual(expect.objectContaining({ role: 'tool', content: 'Answer taken.' }));
    await maybeRecordHistory(child, 'typed-result-final-tool');
  });

  test('a conversation answers each turn with its typed value', async () => {
    env.model.setScript((_request, info) => `{"total": ${info.turnIndex + 1}, "currency": "usd", "lines": []}`, { model: 'typed-invoice' });
    const conversation = env.client.conversation(invoiceReader, { sessionId: `typed-${Date.now()}` });
    const first = await conversation.send('Invoice one');
    const second = await conversation.send('Invoice two');
    expect([first.data, second.data]).toEqual([
      { total: 1, currency: 'USD', lines: [] },
      { total: 2, currency: 'USD', lines: [] },
    ]);
    await conversation.end();
  });
});
