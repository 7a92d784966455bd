import type { AgentEvent } from '../../src/common/events';
import type { ScriptFunction } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { runSql, searchWeb, whoAmI } from '../fixtures/toolkit-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitForPending } from '../helpers/wait-for';

const grouped = defineAgent({
  name: 'fork-grouped',
  instructions: 'Research with the tools of the active groups.',
  tools: [searchWeb, runSql, whoAmI],
  groups: [
    { name: 'web', description: 'Search the public web.', tools: ['search_web'] },
    { name: 'database', description: 'Query the analytics database.', tools: ['run_sql'], active: false },
  ],
  metaTool: true,
});

const ruled = defineAgent({ name: 'fork-ruled', instructions: 'Refund.', tools: [refundTool], permissions: { ask: ['refund'] } });

/** grouped: switch to the database group, then answer with the tools offered; ruled: two refunds, one reply each, then done. */
const script: ScriptFunction = (request, info) => {
  if (request.messages[0]?.content === ruled.instructions) {
    if (info.turnIndex < 2) return { toolCalls: [{ name: 'refund', arguments: { order_id: `R${info.turnIndex + 1}`, amount: 5 } }] };
    return 'done';
  }
  if (info.turnIndex === 0) return { toolCalls: [{ name: 'reset_equipped_tools', arguments: { to_activate: ['database'] } }] };
  return (request.tools ?? []).map((tool) => tool.function.name).sort().join(',');
};

const seqOf = (events: AgentEvent[], type: AgentEvent['type'], n = 1) => events.filter((event) => event.type === type)[n - 1]!.seq;

describe('a fork starts with the tool groups and session rules of its point', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [grouped, ruled], script });
  });
  afterAll(async () => env?.stop());

  test('after reset_equipped_tools changed the groups: the fork is offered the groups as they stood; before it, the agent\'s own', async () => {
    const run = await env.client.start('fork-grouped', { prompt: 'switch to the database' });
    expect((await run.result()).output).toBe('reset_equipped_tools,run_sql,who_am_i');
    const events = await run.eventsAfter(0);
    const changed = events.find((event) => event.type === 'groups_changed');
    expect(changed).toMatchObject({ active: ['database'], by: 'model' });

    // Right after the step that changed them (the meta tool's result is in the conversation).
    const after = await run.fork({ at: seqOf(events, 'iteration_started', 2) });
    expect((await after.result()).output).toBe('reset_equipped_tools,run_sql,who_am_i');
    expect((await after.state()).activeGroups).toEqual(['database']);

    // After the model asked for the change, before it was made: the call is answered as not run, the groups are the agent's.
    const before = await run.fork({ at: seqOf(events, 'model_call_finished') });
    expect((await before.result()).output).toBe('reset_equipped_tools,search_web,who_am_i');
    expect((await before.state()).activeGroups).toEqual(['web']);
  });

  test("after an approval with remember: 'session': the rule is carried, so the fork's refund runs without asking; before it, the fork asks", async () => {
    refundsIssued.length = 0;
    const run = await env.client.start('fork-ruled', { prompt: 'two refunds' });
    const { pending } = await waitForPending(run, 1);
    await run.approve(pending[0]!.callId, { remember: true });
    expect((await run.result()).output).toBe('done');
    expect(refundsIssued.map((refund) => refund.orderId)).toEqual(['R1', 'R2']);
    const events = await run.eventsAfter(0);
    expect(events.find((event) => event.type === 'session_rule_added')).toMatchObject({ rule: 'refund' });

    const after = await run.fork({ at: seqOf(events, 'tool_call_finished') });
    expect((await after.result()).output).toBe('done');
    expect((await after.state()).sessionRules).toEqual(['refund']);
    const forkEvents = await after.eventsAfter(0);
    expect(forkEvents.filter((event) => event.type === 'permission_requested')).toEqual([]);
    expect(forkEvents.filter((event) => event.type === 'tool_call_finished')).toEqual([expect.objectContaining({ tool: 'refund', state: 'success', preview: 'refunded 5 on R2' })]);
    // R1 ran once, in the run; R2 in the run and in the fork (the fork's own call).
    expect(refundsIssued.map((refund) => refund.orderId)).toEqual(['R1', 'R2', 'R2']);

    const before = await run.fork({ at: seqOf(events, 'permission_requested') });
    const asked = await waitForPending(before, 1);
    expect(asked.pending[0]).toMatchObject({ tool: 'refund', input: { order_id: 'R2', amount: 5 } });
    expect(asked.sessionRules).toEqual([]);
    await before.cancel();
  });
});
