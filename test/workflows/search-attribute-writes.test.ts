import { AGENT_STATUS, AGENT_TOTAL_TOKENS } from '../../src/common/search-attributes';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitForPending } from '../helpers/wait-for';

const agent = defineAgent({ name: 'sparse', instructions: 'Look up, then refund.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });

describe('search attributes are written when they mean something', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [agent] });
  });
  afterAll(async () => env?.stop());

  test('one upsert per status change (with the tokens so far), none per model call; the final values are right', async () => {
    env.model.setScript([
      { toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }], usage: { promptTokens: 10, completionTokens: 1 } },
      { toolCalls: [{ name: 'lookup', arguments: { key: 'b' } }], usage: { promptTokens: 20, completionTokens: 2 } },
      { toolCalls: [{ name: 'refund', arguments: { order_id: 'S1', amount: 1 } }], usage: { promptTokens: 30, completionTokens: 3 } },
      { text: 'Done.', usage: { promptTokens: 40, completionTokens: 4 } },
    ]);
    const run = await env.client.start('sparse', { prompt: 'go' });
    const { pending } = await waitForPending(run);
    const waiting = await run.handle.describe();
    expect(waiting.typedSearchAttributes.get(AGENT_STATUS)).toBe('awaiting_approval');
    expect(waiting.typedSearchAttributes.get(AGENT_TOTAL_TOKENS)).toBe(66);
    await run.approve(pending[0]!.callId);
    const result = await run.result();
    expect(result.iterations).toBe(4);

    const history = await run.handle.fetchHistory();
    const upserts = history.events!.flatMap((e) => {
      const fields = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
      return fields ? [Object.keys(fields).sort()] : [];
    });
    // awaiting_approval, running, completed, each with the tokens so far; the client set name and
    // status at start, and the 4 model calls add none. No patch marker and no record of it: the
    // client's start input version decides.
    expect(upserts).toEqual(Array(3).fill(['AgentStatus', 'AgentTotalTokens']));
    expect(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toEqual([]);
    const done = await run.handle.describe();
    expect(done.typedSearchAttributes.get(AGENT_STATUS)).toBe('completed');
    expect(done.typedSearchAttributes.get(AGENT_TOTAL_TOKENS)).toBe(result.usage.totalTokens);
    await maybeRecordHistory(run, 'sparse-search-attributes');
  });

  test('a run started by an older client (no start input version) decides by the patch, as before', async () => {
    env.model.setScript(['Done at once.']);
    const workflowId = `sparse-old-client-${Date.now()}`;
    const handle = await env.client.client.workflow.start('agentWorkflow', { taskQueue: env.taskQueue, workflowId, args: [{ agent: 'sparse', prompt: 'go', runtime: {} }] });
    await handle.result();
    const history = await handle.fetchHistory();
    expect(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toHaveLength(1);
    const upserts = history.events!.flatMap((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}));
    expect(upserts).toContain('TemporalChangeVersion');
  });
});
