import { z } from 'zod';
import type { CallModelRequest } from '../../src/common/contracts/model-call';
import { REFERENCED_RESULT_MIN_CHARS } from '../../src/common/contracts/tool-result-references';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { shipTool } from '../fixtures/approval-tools';
import { activityInputs, activityResults } from '../helpers/activity-history';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitForPending } from '../helpers/wait-for';

const PAGE = Array.from({ length: 80 }, (_, i) => `line ${i} of the page, with some words on it`).join('\n');
const pageTool = defineTool({ name: 'read_page', description: 'Read a page.', input: z.object({ url: z.string() }), readOnly: true, execute: () => PAGE });
const reader = defineAgent({ name: 'page-reader', instructions: 'Read pages, ship parcels.', tools: [pageTool, shipTool] });

/** How often `marker` appears in the payloads of these history events, each decoded as text. */
function occurrences(value: unknown, marker: string): number {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8').split(marker).length - 1;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + occurrences(item, marker), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + occurrences(item, marker), 0);
  return 0;
}

function toolMessageSent(request: { body: { messages: Array<{ role: string; content?: unknown }> } }): unknown {
  return request.body.messages.find((m) => m.role === 'tool')?.content;
}

describe('a tool result is recorded once: the next model call names it', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [reader] });
  });
  afterAll(() => env?.stop());

  test("the worker that ran the tool puts its result back; history holds the page once, the model gets all of it", async () => {
    expect(PAGE.length).toBeGreaterThan(REFERENCED_RESULT_MIN_CHARS);
    env.model.setScript([{ toolCalls: [{ name: 'read_page', arguments: { url: 'https://example.com' } }] }, 'Read it.']);
    const before = env.model.requests.length;
    const run = await env.client.start('page-reader', { prompt: 'read the page' });
    const result = await run.result();
    expect(result.output).toBe('Read it.');

    const history = await run.handle.fetchHistory();
    const [, second] = activityInputs<CallModelRequest>(history, 'callModel');
    expect(second!.conversation.messages).toBeUndefined();
    expect(second!.conversation.referencing!.references).toEqual([{ toolCallId: expect.any(String), chars: PAGE.length, hash: expect.any(Number) }]);
    expect(second!.conversation.referencing!.messages.find((m) => m.role === 'tool')).toMatchObject({ role: 'tool', name: 'read_page', content: '' });
    // Once as the tool activity's result (checked and run there); the completion's result carries the conversation, with it, once more.
    expect(activityResults<{ ran: { result: { content: string } } }>(history, 'executeTool')[0]!.ran.result.content).toBe(PAGE);
    const lastLine = PAGE.split('\n').at(-1)!;
    expect(occurrences(history.events!.filter((e) => !e.workflowExecutionCompletedEventAttributes), lastLine)).toBe(1);

    const sent = env.model.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(toolMessageSent(sent[1]!)).toBe(PAGE);
    await maybeRecordHistory(run, 'tool-result-referenced');
  });

  test('a result this worker did not produce (an external tool\'s) is read through the query, and the model gets all of it', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'ship_parcel', arguments: { address: '1 Main St' } }] }, 'Shipped.']);
    const before = env.model.requests.length;
    const run = await env.client.start('page-reader', { prompt: 'ship it' });
    const { pending } = await waitForPending(run, 1);
    await run.submit(pending[0]!.callId, PAGE);
    const result = await run.result();
    expect(result.output).toBe('Shipped.');

    const [, second] = activityInputs<CallModelRequest>(await run.handle.fetchHistory(), 'callModel');
    expect(second!.conversation.referencing!.references.map((r) => r.chars)).toEqual([PAGE.length]);
    expect(toolMessageSent(env.model.requests.slice(before)[1]!)).toBe(PAGE);
  });
});
