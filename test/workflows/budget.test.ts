import { BUDGET_TOOL } from '../../src/common/budget';
import type { AgentEvent } from '../../src/common/events';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent } from '../../src/toolkit/define-agent';
import type { ScriptedTurn } from '../../src/testing/scripted-model-types';
import { addTool } from '../fixtures/test-tools';
import { startAgentTestEnv, startTestWorker, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { maybeRecordHistory } from '../helpers/record-history';
import { testAddress, testNamespace, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { AgentClient } from '../../src/client/agent-client';
import { testConnection } from '../helpers/temporal-env';

/** Every reply costs 1,000 tokens (900 in, 100 out): a budget of 1,500 holds one call, not two. */
const THOUSAND = { promptTokens: 900, completionTokens: 100 };
const addCall = (a: number): ScriptedTurn => ({ text: `Adding ${a} first.`, toolCalls: [{ name: 'add', arguments: { a, b: 1 } }], usage: THOUSAND });
const answer = (text: string): ScriptedTurn => ({ text, usage: THOUSAND });

const counted = defineAgent({ name: 'budgeted', instructions: 'Add.', tools: [addTool], model: 'budgeted', budget: { tokens: 1500, more: { tokens: 1000 } } });
const capped = defineAgent({ name: 'capped', instructions: 'Add.', tools: [addTool], model: 'capped', budget: { tokens: 1500, onReached: 'stop' } });
const hurried = defineAgent({ name: 'hurried', instructions: 'Add.', tools: [addTool], model: 'hurried', budget: { tokens: 1500, timeout: '2s' } });
const priced = defineAgent({
  name: 'priced-budget',
  instructions: 'Add.',
  tools: [addTool],
  model: { name: 'priced', prices: { priced: { inputPerMillion: 1000, outputPerMillion: 1000 } } },
});
const helper = defineAgent({ name: 'budget-helper', instructions: 'Add.', tools: [addTool], model: 'helper' });
const lead = defineAgent({ name: 'budget-lead', instructions: 'Delegate.', tools: [agentTool(helper, { name: 'helper' })], model: 'lead', budget: { tokens: 2500 } });
const talker = defineAgent({ name: 'budget-talker', instructions: 'Talk.', tools: [], model: 'talker' });

const cliConnection = (env: AgentTestEnv) => ['--address', testAddress(), '--namespace', testNamespace(), '--task-queue', env.taskQueue];
const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('budgets: a run that would spend past its budget waits for a person, or stops', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [counted, capped, hurried, priced, lead, talker] });
  });
  afterAll(async () => env?.stop());

  test('reached before the second call: the run waits on a $budget call; allowing more (edited) raises the limit and the run finishes', async () => {
    env.model.setScript([addCall(1), answer('2')], { model: 'budgeted' });
    const run = await env.client.start('budgeted', { prompt: 'add 1 and 1' });
    const waiting = await waitForPending(run);
    expect(waiting.status).toBe('awaiting_approval');
    const call = waiting.pending[0]!;
    expect(call).toMatchObject({ tool: BUDGET_TOOL, kind: 'approval', input: { tokens: 1000 }, callId: 'budget-1' });
    expect(call.decision?.reason).toMatch(/^budget of 1,500 tokens reached \(1,000 tokens spent, the next model call ≈ [\d,]+ tokens\): allow 1,000 tokens more\?$/);
    expect(call.schema).toMatchObject({ type: 'object', properties: { tokens: { type: 'integer' } } });
    expect(waiting.budget).toEqual({ limit: { tokens: 1500 }, spent: { tokens: 1000 }, raised: {} });
    // Only the one model call so far.
    expect(env.model.requests.filter((r) => r.body.model === 'budgeted')).toHaveLength(1);
    // approveAll does not allow spending: the call still waits.
    await run.approveAll();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await run.state()).pending.map((p) => p.callId)).toEqual(['budget-1']);

    await run.approve('budget-1', { input: { tokens: 5000 }, answeredBy: 'alice' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'completed', output: '2', budget: { limit: { tokens: 6500 }, spent: { tokens: 2000 }, raised: { tokens: 5000 } } });
    const events = await run.eventsAfter(0);
    expect(ofType(events, 'budget_reached')).toEqual([expect.objectContaining({ callId: 'budget-1', limit: { tokens: 1500 }, spent: { tokens: 1000 }, onReached: 'ask', more: { tokens: 1000 } })]);
    expect(ofType(events, 'budget_raised')).toEqual([expect.objectContaining({ callId: 'budget-1', allowed: { tokens: 5000 }, answeredBy: 'alice', limit: { tokens: 6500 } })]);
    // The call itself is asked and decided like any approval.
    expect(ofType(events, 'permission_requested')).toEqual([expect.objectContaining({ callId: 'budget-1', tool: BUDGET_TOOL, input: { tokens: 1000 } })]);
    expect(ofType(events, 'permission_decided')).toEqual([
      expect.objectContaining({ callId: 'budget-1', tool: BUDGET_TOOL, behavior: 'allow', by: 'user', answeredBy: 'alice', input: { tokens: 5000 } }),
    ]);
    await maybeRecordHistory(run, 'budget-approved');
  });

  test('an allowance that is not an amount is refused, and the call still waits', async () => {
    env.model.setScript([addCall(1), answer('2')], { model: 'budgeted' });
    const run = await env.client.start('budgeted', { prompt: 'add 1 and 1' });
    await waitForPending(run);
    await expect(run.approve('budget-1', { input: { tokens: -5 } })).rejects.toThrow(/tokens must be more than 0/);
    await expect(run.approve('budget-1', { input: { dollars: 5 } })).rejects.toThrow(/Unrecognized key/);
    expect((await run.state()).pending.map((p) => p.callId)).toEqual(['budget-1']);
    await run.approve('budget-1');
    expect(await run.result()).toMatchObject({ status: 'completed', budget: { limit: { tokens: 2500 }, raised: { tokens: 1000 } } });
  });

  test('denied: the run ends as budget_exhausted with what the model wrote last, and says who refused', async () => {
    env.model.setScript([addCall(1), answer('never sent')], { model: 'budgeted' });
    const run = await env.client.start('budgeted', { prompt: 'add 1 and 1' });
    await waitForPending(run);
    await run.deny('budget-1', 'enough for today', { answeredBy: 'bob' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'budget_exhausted', output: 'Adding 1 first.', budget: { spent: { tokens: 1000 }, raised: {} } });
    expect(env.model.requests.filter((r) => JSON.stringify(r.body).includes('never sent'))).toHaveLength(0);
    const state = await run.state();
    expect(state.status).toBe('budget_exhausted');
    expect(state.currentStep).toMatch(/^stopped: budget of 1,500 tokens reached .*; more was refused by bob: enough for today$/);
    const events = await run.eventsAfter(0);
    expect(ofType(events, 'permission_decided')).toEqual([expect.objectContaining({ callId: 'budget-1', behavior: 'deny', by: 'user', answeredBy: 'bob', reason: 'enough for today' })]);
    expect(ofType(events, 'budget_raised')).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', status: 'budget_exhausted' });
    const watched = await runCliCaptured(['watch', run.workflowId, '--events-only', ...cliConnection(env)]);
    expect(watched.code).toBe(0);
    const printed = watched.out.join('\n');
    expect(printed).toMatch(/\$ budget of 1,500 tokens reached: 1,000 tokens spent/);
    expect(printed).toMatch(/✘ \$budget: deny by user \(enough for today\)/);
    expect(printed).toMatch(/■ budget_exhausted: Adding 1 first\./);
    await maybeRecordHistory(run, 'budget-denied');
  });

  test('nobody answers within the timeout: budget_exhausted, the decision says timed_out', async () => {
    env.model.setScript([addCall(1), answer('never sent')], { model: 'hurried' });
    const run = await env.client.start('hurried', { prompt: 'add 1 and 1' });
    const result = await run.result();
    expect(result.status).toBe('budget_exhausted');
    const events = await run.eventsAfter(0);
    expect(ofType(events, 'permission_decided')).toEqual([expect.objectContaining({ callId: 'budget-1', behavior: 'deny', by: 'timeout', reason: 'approval timed out after 2s' })]);
    expect((await run.state()).currentStep).toMatch(/nobody allowed more within 2s$/);
  });

  test('a hard cap ends the run at once, without asking', async () => {
    env.model.setScript([addCall(1), answer('never sent')], { model: 'capped' });
    const run = await env.client.start('capped', { prompt: 'add 1 and 1' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'budget_exhausted', output: 'Adding 1 first.', usage: { totalTokens: 1000 } });
    const events = await run.eventsAfter(0);
    expect(ofType(events, 'budget_reached')).toEqual([expect.objectContaining({ onReached: 'stop', limit: { tokens: 1500 }, spent: { tokens: 1000 } })]);
    expect(ofType(events, 'budget_reached')[0]!.callId).toBeUndefined();
    expect(ofType(events, 'permission_requested')).toHaveLength(0);
    await maybeRecordHistory(run, 'budget-hard-cap');
  });

  test("a run's cost budget (start option) on a priced agent, raised from the CLI with another amount", async () => {
    // 1,000 tokens at 1,000 per million: $1.00 a call.
    env.model.setScript([addCall(1), addCall(2), answer('done')], { model: 'priced' });
    const run = await env.client.start('priced-budget', { prompt: 'add', budget: { cost: 1.5, more: { cost: 1 } } });
    const waiting = await waitForPending(run);
    expect(waiting.pending[0]!.decision?.reason).toMatch(/^budget of \$1\.50 reached \(\$1\.00 spent, the next model call ≈ \$[\d.]+\): allow \$1\.00 more\?$/);
    const approved = await runCliCaptured(['approve', run.workflowId, 'budget-1', '--input', '{"cost": 3}', '--as', 'carol', ...cliConnection(env)]);
    expect(approved.code).toBe(0);
    const result = await run.result();
    expect(result).toMatchObject({ status: 'completed', output: 'done', budget: { limit: { cost: 4.5 }, raised: { cost: 3 } } });
    expect(result.cost).toBeCloseTo(3, 9);
  });

  test('a budget that is not one is refused by the client before anything starts', async () => {
    await expect(env.client.start('budgeted', { prompt: 'x', budget: { cost: -1 } })).rejects.toThrow(/budget\.cost must not be below 0/);
    await expect(env.client.start('budgeted', { prompt: 'x', budget: {} })).rejects.toThrow(/a budget needs tokens, cost or both/);
    const cli = await runCliCaptured(['start', '--agent', 'budgeted', '--prompt', 'x', '--budget', '{"tokens": "many"}']);
    expect(cli.code).toBe(2);
    expect(cli.err.join('\n')).toMatch(/--budget: budget\.tokens must be a number/);
  });

  test("a sub-agent draws from its parent's budget: it waits when it would pass what is left; allowed there, the parent does not ask again", async () => {
    env.model.setScript([{ toolCalls: [{ name: 'helper', arguments: { task: 'add 1 and 1, then 2 and 1' } }], usage: THOUSAND }, answer('the helper says 3')], { model: 'lead' });
    env.model.setScript([addCall(1), addCall(2), answer('3')], { model: 'helper' });
    const run = await env.client.start('budget-lead', { prompt: 'delegate' });
    // Lead spent 1,000 of 2,500: the helper may spend 1,500 — one call, not two.
    const waiting = await waitForPending(run);
    const call = waiting.pending[0]!;
    expect(call).toMatchObject({ tool: BUDGET_TOOL, callId: 'budget-1', workflowId: `${run.workflowId}/${waiting.calls?.[0]?.callId}`, input: { tokens: 1250 } });
    expect(call.decision?.reason).toMatch(/^budget of 1,500 tokens reached \(1,000 tokens spent/);
    // Answered through the parent's id: passed on to the sub-agent run that holds it.
    await run.approve('budget-1', { input: { tokens: 3000 }, answeredBy: 'dana' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'completed', output: 'the helper says 3', usage: { totalTokens: 5000 } });
    // The helper's allowance raised the lead's limit: 2,500 + 3,000, and 5,000 spent within it.
    expect(result.budget).toEqual({ limit: { tokens: 5500 }, spent: { tokens: 5000 }, raised: { tokens: 3000 } });
    expect(ofType(await run.eventsAfter(0), 'budget_reached')).toHaveLength(0);
    const child = env.client.get(call.workflowId!);
    expect(ofType(await child.eventsAfter(0), 'budget_raised')).toEqual([expect.objectContaining({ answeredBy: 'dana', allowed: { tokens: 3000 }, limit: { tokens: 4500 } })]);
    await maybeRecordHistory(run, 'budget-sub-agent-parent');
    await maybeRecordHistory(child, 'budget-sub-agent-allowed');
  });

  test("a conversation's budget spans its turns and survives continue-as-new", async () => {
    env.model.setScript((_request, info) => ({ text: `answer ${info.turnIndex + 1}`, usage: THOUSAND }), { model: 'talker' });
    const conversation = env.client.conversation('budget-talker', { sessionId: `budget-${Date.now()}`, continueAsNewAfterEvents: 12, budget: { tokens: 2500 } });
    expect((await conversation.send('one')).output).toBe('answer 1');
    expect((await conversation.send('two')).output).toBe('answer 2');
    // The third turn would pass 2,500 tokens: it waits for a person, in the run continued as new.
    const third = await conversation.send('three', { wait: false });
    const waiting = await waitForPending(conversation.run);
    const described = await conversation.run.handle.describe();
    expect(described.runId).not.toBe(described.raw.workflowExecutionInfo?.firstRunId);
    expect(waiting.pending[0]).toMatchObject({ tool: BUDGET_TOOL, callId: 'budget-1' });
    expect(waiting.budget).toEqual({ limit: { tokens: 2500 }, spent: { tokens: 2000 }, raised: {} });
    await conversation.run.approve('budget-1', { answeredBy: 'erin' });
    expect(await third.result()).toMatchObject({ status: 'completed', output: 'answer 3' });
    // The next turn is past the raised limit again (3,000 spent of 3,750 + next): asked again, and refused.
    const fourth = await conversation.send('four', { wait: false });
    await waitFor(async () => ((await conversation.run.state()).pending[0]?.callId === 'budget-2' ? true : undefined), 'the second budget call');
    await conversation.run.deny('budget-2', 'that will do');
    expect(await fourth.result()).toMatchObject({ status: 'budget_exhausted', output: 'answer 3' });
    expect((await conversation.run.state()).budget).toEqual({ limit: { tokens: 3750 }, spent: { tokens: 3000 }, raised: { tokens: 1250 } });
    await conversation.end();
  });
});

describe("budgets: the worker's budget for a runtime user", () => {
  test('runs of that user keep it (the smaller limit wins); runs of others keep the `*` one', async () => {
    const model = await (await import('../../src/testing/scripted-model-server')).startScriptedModelServer({});
    const taskQueue = uniqueTaskQueue('user-budgets');
    const free = defineAgent({ name: 'free-adder', instructions: 'Add.', tools: [addTool], model: 'free' });
    const started = await startTestWorker([free], taskQueue, model.baseURL, undefined, {}, {
      config: { taskQueue, defaultModel: 'scripted-model', namespace: 'default', userBudgets: { '*': { tokens: 100_000 }, mallory: { tokens: 1500, onReached: 'stop' } } },
    });
    try {
      const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
      model.setScript([addCall(1), answer('2')], { model: 'free' });
      const limited = await (await client.start('free-adder', { prompt: 'add', userId: 'mallory' })).result();
      expect(limited).toMatchObject({ status: 'budget_exhausted', budget: { limit: { tokens: 1500 } } });
      model.setScript([addCall(1), answer('2')], { model: 'free' });
      const other = await (await client.start('free-adder', { prompt: 'add', userId: 'oscar' })).result();
      expect(other).toMatchObject({ status: 'completed', budget: { limit: { tokens: 100_000 }, spent: { tokens: 2000 } } });
      model.setScript([addCall(1), answer('2')], { model: 'free' });
      const nobody = await (await client.start('free-adder', { prompt: 'add' })).result();
      expect(nobody.status).toBe('completed');
      expect(nobody.budget).toBeUndefined();
    } finally {
      await started.stop();
      await model.close();
    }
  });
});
