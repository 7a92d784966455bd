import type { AssistantMessage } from '../../src/common/messages';
import { defineAgent } from '../../src/toolkit/define-agent';
import { usedCallIds, withUniqueCallIds } from '../../src/workflows/unique-call-ids';
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
});
