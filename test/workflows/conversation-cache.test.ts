import { z } from 'zod';
import type { ScriptedRequestLogEntry } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { CONVERSATION_PAGE_BYTES } from '../../src/common/contracts/conversation-reader';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, startTestWorker, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitForPending } from '../helpers/wait-for';

const RESULT_CHARS = 29_000;
const bulkTool = defineTool({
  name: 'bulk',
  description: 'A large result.',
  input: z.object({ n: z.number().int() }),
  readOnly: true,
  execute: ({ n }) => `${n}:`.padEnd(RESULT_CHARS, 'r'),
});
const agent = defineAgent({ name: 'cached', instructions: 'Work, then refund.', tools: [lookupTool, refundTool, bulkTool], permissions: { ask: ['refund'] }, maxIters: 200 });

/** The requests of one run, as the model server saw them (method-independent fields only). */
function conversationOf(requests: ScriptedRequestLogEntry[]) {
  return requests.map((r) => r.body.messages);
}

describe("the worker's conversation cache", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [agent] });
  });
  afterAll(async () => env?.stop());

  async function parkThenAnswerOn(newWorker: boolean, bulkResults: number) {
    env.model.setScript((_req, info) => {
      if (info.turnIndex < bulkResults) return { toolCalls: [{ name: 'bulk', arguments: { n: info.turnIndex } }] };
      if (info.turnIndex === bulkResults) return { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] };
      if (info.turnIndex === bulkResults + 1) return { toolCalls: [{ name: 'refund', arguments: { order_id: 'C1', amount: 2 } }] };
      return `done after ${info.toolResults.length} result(s)`;
    });
    const before = env.model.requests.length;
    const run = await env.client.start('cached', { prompt: 'go' });
    const { pending } = await waitForPending(run, 1, 120_000);
    let extra: Awaited<ReturnType<typeof startTestWorker>> | undefined;
    if (newWorker) {
      // Another worker, with an empty cache, takes the next model call; the first one is gone.
      await env.worker.worker.shutdown();
      extra = await startTestWorker([agent], env.taskQueue, env.model.baseURL);
    }
    await run.approve(pending[0]!.callId);
    const result = await run.result();
    await extra?.stop();
    return { result, requests: env.model.requests.slice(before) };
  }

  test('a cache miss on a second worker gives the model the identical request, read page by page', async () => {
    // 50 results of 29,000 characters: more than one page of the paged read (CONVERSATION_PAGE_BYTES).
    const bulk = 50;
    const control = await parkThenAnswerOn(false, 0);
    expect(control.result.status).toBe('completed');

    const moved = await parkThenAnswerOn(true, bulk);
    expect(moved.result.status).toBe('completed');
    const requests = conversationOf(moved.requests);
    const last = requests.at(-1)!;
    // The call after the approval ran on the new worker, which read the whole conversation page by page.
    expect(JSON.stringify(last).length).toBeGreaterThan(CONVERSATION_PAGE_BYTES);
    expect(last.filter((m) => m.role === 'tool')).toHaveLength(bulk + 2);
    // Identical to what one worker throughout sends for the same turn: the earlier request plus what was added.
    const beforeLast = requests.at(-2)!;
    expect(last.slice(0, beforeLast.length)).toEqual(beforeLast);
    expect(last.slice(beforeLast.length).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(conversationOf(control.requests).at(-1)!.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  }, 240_000);
});
