import { z } from 'zod';
import type { AssistantMessage } from '../../src/common/messages';
import type { ScriptedTurnInfo } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { usedCallIds, withUniqueCallIds } from '../../src/workflows/model/unique-call-ids';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { toolMessages } from '../helpers/tool-messages';
import { waitForPending } from '../helpers/wait-for';

const reply = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: null,
  toolCalls: ids.map((id, i) => ({ id, name: `t${i}`, arguments: '{}' })),
});

describe('tool call ids are unique within a run', () => {
  test('fresh ids are kept; empty, reused and repeated ids are replaced deterministically', () => {
    const fresh = reply('a', 'b');
    expect(withUniqueCallIds(fresh, new Set(['x']), 1)).toBe(fresh);
    expect(withUniqueCallIds(reply('call_0', '', 'b', 'b'), new Set(['call_0']), 3).toolCalls!.map((c) => c.id)).toEqual([
      'call_3_0',
      'call_3_1',
      'b',
      'call_3_3',
    ]);
    expect(withUniqueCallIds(reply('x'), new Set(['x', 'call_2_0']), 2).toolCalls![0].id).toBe('call_2_0_');
    expect([...usedCallIds([reply('a'), { role: 'user', content: 'hi' }, reply('b', 'c')])]).toEqual(['a', 'b', 'c']);
  });

  describe('with a server that numbers every reply from call_0', () => {
    let env: AgentTestEnv;
    const agent = defineAgent({ name: 'reuser', instructions: 'Refund.', tools: [refundTool], permissions: { ask: ['refund'] } });
    beforeAll(async () => {
      env = await startAgentTestEnv({
        agents: [agent],
        script: (_req, info) =>
          info.turnIndex < 2
            ? { toolCalls: [{ id: 'call_0', name: 'refund', arguments: { order_id: `R${info.turnIndex}`, amount: 1 } }] }
            : 'both done',
      });
    });
    afterAll(async () => env?.stop());

    test('the second reply\'s call can still be approved, and each result answers its own call', async () => {
      refundsIssued.length = 0;
      const run = await env.client.start('reuser', { prompt: 'two refunds' });
      await run.approve((await waitForPending(run, 1)).pending[0].callId);
      for (;;) {
        const state = await run.state();
        if (state.pending.length === 1 && state.pending[0].callId !== 'call_0') {
          expect(state.pending[0].callId).toBe('call_2_0');
          await run.approve(state.pending[0].callId);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const result = await run.result();
      expect(result.output).toBe('both done');
      expect(refundsIssued.map((r) => r.orderId)).toEqual(['R0', 'R1']);
      expect(toolMessages(result.messages).map((t) => t.toolCallId)).toEqual(['call_0', 'call_2_0']);
      // The model was sent the new id with both the call and its result.
      const last = env.model.requests.at(-1)!.body.messages;
      expect(last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_0', 'call_2_0']);
    });
  });

  describe('with a server that repeats one id within a reply and omits another', () => {
    let env: AgentTestEnv;
    const ran: Array<{ tool: string; callId: string; input: string }> = [];
    const weatherTool = defineTool({
      name: 'weather_lookup',
      description: 'Weather for a city.',
      input: z.object({ city: z.string() }),
      readOnly: true,
      execute: ({ city }, ctx) => {
        ran.push({ tool: 'weather_lookup', callId: ctx.callId, input: city });
        return `sunny in ${city}`;
      },
    });
    const orderTool = defineTool({
      name: 'query_order',
      description: 'Look up an order.',
      input: z.object({ order_id: z.string() }),
      readOnly: true,
      execute: ({ order_id }, ctx) => {
        ran.push({ tool: 'query_order', callId: ctx.callId, input: order_id });
        return `order ${order_id} shipped`;
      },
    });
    const tools = [weatherTool, orderTool];
    const plain = defineAgent({ name: 'dup-plain', instructions: 'Look things up.', tools });
    const streaming = defineAgent({ name: 'dup-streaming', instructions: 'Look things up.', tools, model: { stream: true } });
    const seen: ScriptedTurnInfo['toolResults'][] = [];

    beforeAll(async () => {
      env = await startAgentTestEnv({
        agents: [plain, streaming],
        script: (_req, info) => {
          if (info.turnIndex > 0) {
            seen.push(info.toolResults);
            return 'all looked up';
          }
          return {
            toolCalls: [
              { id: 'dup', name: 'weather_lookup', arguments: { city: 'Rome' } },
              { id: 'dup', name: 'query_order', arguments: { order_id: 'A1' } },
              { id: null, name: 'weather_lookup', arguments: { city: 'Oslo' } },
            ],
          };
        },
      });
    });
    afterAll(async () => env?.stop());

    test.each([
      ['without streaming', 'dup-plain', false],
      ['with streaming', 'dup-streaming', true],
    ])('%s, every call runs once under its own id and the model sees every result', async (_name, agentName, stream) => {
      ran.length = 0;
      seen.length = 0;
      const before = env.model.requests.length;
      const result = await (await env.client.start(agentName, { prompt: 'Rome, Oslo and order A1' })).result();
      expect(result.output).toBe('all looked up');
      expect(env.model.requests.slice(before).map((r) => r.stream)).toEqual([stream, stream]);

      const ids = toolMessages(result.messages).map((t) => t.toolCallId);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      expect(ids[0]).toBe('dup');
      expect([...ran].sort((a, b) => ids.indexOf(a.callId) - ids.indexOf(b.callId))).toEqual([
        { tool: 'weather_lookup', callId: ids[0], input: 'Rome' },
        { tool: 'query_order', callId: ids[1], input: 'A1' },
        { tool: 'weather_lookup', callId: ids[2], input: 'Oslo' },
      ]);

      // The model was sent the calls under their new ids, each answered by its own result.
      const assistant = env.model.requests.at(-1)!.body.messages.find((m) => m.role === 'assistant')!;
      expect(assistant.tool_calls!.map((c) => c.id)).toEqual(ids);
      expect(seen).toEqual([
        [
          { toolCallId: ids[0], name: 'weather_lookup', arguments: '{"city":"Rome"}', content: 'sunny in Rome' },
          { toolCallId: ids[1], name: 'query_order', arguments: '{"order_id":"A1"}', content: 'order A1 shipped' },
          { toolCallId: ids[2], name: 'weather_lookup', arguments: '{"city":"Oslo"}', content: 'sunny in Oslo' },
        ],
      ]);
    });
  });
});
