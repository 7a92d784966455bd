import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';

let wiped = 0;
let release: () => void = () => undefined;
const slowTool = defineTool({
  name: 'slow_lookup',
  description: 'Look something up, slowly.',
  input: z.object({ key: z.string() }),
  readOnly: true,
  execute: () => new Promise<string>((resolve) => (release = () => resolve('found, slowly'))),
});
const wipeTool = defineTool({ name: 'wipe', description: 'Wipe everything.', input: z.object({}), execute: () => `wiped ${++wiped}` });

const shop = defineAgent({
  name: 'checked-shop',
  instructions: 'Look up and refund.',
  tools: [lookupTool, refundTool, wipeTool, slowTool],
  permissions: { ask: ['refund'], deny: ['wipe'] },
});

async function historyOf(run: { handle: { fetchHistory(): Promise<{ events?: any[] | null }> } }) {
  const events = (await run.handle.fetchHistory()).events ?? [];
  const markers = events.flatMap((e) => (e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes.markerName as string] : []));
  const activities = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name as string] : []));
  return { markers, activities };
}

describe('a single call is checked by the activity that runs it', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [shop] });
  });
  afterAll(() => env?.stop());

  test('a call the rules allow: checked and run in one activity, no check of its own', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'lookup', arguments: { key: 'ORD-1' } }] }, 'Found it.']);
    const run = await env.client.start('checked-shop', { prompt: 'look up ORD-1' });
    const result = await run.result();
    expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'value of ORD-1', state: 'success' });
    const { markers, activities } = await historyOf(run);
    // The agent's description (a local activity), and no local check of the call.
    expect(markers.filter((name) => name === 'core_local_activity')).toHaveLength(1);
    expect(activities).toEqual(['callModel', 'executeTool', 'callModel']);
    const events = await run.eventsAfter(0);
    const started = events.find((e) => e.type === 'tool_call_started');
    expect(started).toMatchObject({ tool: 'lookup', input: { key: 'ORD-1' } });
    expect(events.findIndex((e) => e.type === 'tool_call_started')).toBeLessThan(events.findIndex((e) => e.type === 'tool_call_finished'));
  });

  test("a long call's start shows while it runs", async () => {
    env.model.setScript([{ toolCalls: [{ name: 'slow_lookup', arguments: { key: 'k' } }] }, 'Done.']);
    const run = await env.client.start('checked-shop', { prompt: 'look up slowly' });
    const started = await waitFor(async () => (await run.eventsAfter(0)).find((e) => e.type === 'tool_call_started'), 'the start event');
    expect(started).toMatchObject({ tool: 'slow_lookup', input: { key: 'k' } });
    expect((await run.eventsAfter(0)).some((e) => e.type === 'tool_call_finished')).toBe(false);
    release();
    expect((await run.result()).messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'found, slowly' });
    await maybeRecordHistory(run, 'check-in-execute-allowed');
  });

  test('a call the rules deny and a call whose input is invalid: answered by the check, which ends the started call; nothing runs', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'wipe', arguments: {} }] }, { toolCalls: [{ name: 'lookup', arguments: { key: 7 } }] }, 'Done.']);
    const run = await env.client.start('checked-shop', { prompt: 'try' });
    const result = await run.result();
    const tools = result.messages.filter((m) => m.role === 'tool');
    expect(tools[0]).toMatchObject({ state: 'denied' });
    expect(tools[0]!.content).toMatch(/^Permission denied by rules:/);
    expect(tools[1]!.content).toMatch(/^Error: Parameter validation failed for tool 'lookup'/);
    const events = await run.eventsAfter(0);
    expect(events.filter((e) => e.type === 'tool_call_started').map((e) => (e as { input: unknown }).input)).toEqual([{}, { key: 7 }]);
    expect(events.filter((e) => e.type === 'tool_call_finished').map((e) => (e as { state: string }).state)).toEqual(['denied', 'error']);
    expect(events.find((e) => e.type === 'permission_decided')).toMatchObject({ behavior: 'deny', by: 'rules' });
    expect(wiped).toBe(0);
  });

  test('a call the engine may ask about is checked first, as before: it waits for the person, then runs', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'refund', arguments: { order_id: 'ORD-2', amount: 5 } }] }, 'Refunded.']);
    const run = await env.client.start('checked-shop', { prompt: 'refund' });
    const waiting = await waitForPending(run);
    expect(waiting.pending[0]).toMatchObject({ tool: 'refund', input: { order_id: 'ORD-2', amount: 5 } });
    await run.approve(waiting.pending[0]!.callId);
    const result = await run.result();
    expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'refunded 5 on ORD-2', state: 'success' });
    const { activities, markers } = await historyOf(run);
    expect(activities).toEqual(['callModel', 'executeTool', 'callModel']);
    expect(markers.filter((name) => name === 'core_local_activity')).toHaveLength(2);
    await maybeRecordHistory(run, 'check-in-execute-approved');
  });
});
