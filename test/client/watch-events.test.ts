import { WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import type { AgentEvent, AgentEventType } from '../../src/common/events';
import { runCli } from '../../src/cli/run-cli';
import type { CliOutput } from '../../src/cli/cli-output';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { lookupTool, refundTool, shipTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const aborted: string[] = [];
const longTool = defineTool({
  name: 'long_job',
  description: 'A long job that stops when cancelled.',
  input: z.object({}),
  readOnly: true,
  heartbeatTimeout: '2s',
  execute: (_input, ctx) =>
    new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('finished'), 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(ctx.callId);
        resolve('stopped');
      });
    }),
});

const agent = defineAgent({
  name: 'watched',
  instructions: 'Do the job.',
  tools: [refundTool, lookupTool, shipTool, longTool],
  permissions: { ask: ['refund'] },
});

function capture(): CliOutput & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

async function pendingCall(env: AgentTestEnv, id: string, kind: 'approval' | 'external'): Promise<string> {
  for (;;) {
    const call = (await env.client.get(id).state()).pending.find((p) => p.kind === kind);
    if (call) return call.callId;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('events and watch', () => {
  let env: AgentTestEnv;
  let common: string[];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [agent] });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => env?.stop());

  test('watch --json lists every event type, in order, live until the run ends', async () => {
    env.model.setScript([
      {
        toolCalls: [
          { name: 'refund', arguments: { order_id: 'W1', amount: 3 } },
          { name: 'lookup', arguments: { key: 'w' } },
        ],
      },
      { toolCalls: [{ name: 'ship_parcel', arguments: { address: 'Suzhou' } }] },
      'All done.',
    ]);
    const run = await env.client.start('watched', { prompt: 'watch me' });
    const out = capture();
    const watching = runCli(['watch', run.workflowId, '--json', ...common], out);
    await run.approve(await pendingCall(env, run.workflowId, 'approval'));
    await run.submit(await pendingCall(env, run.workflowId, 'external'), 'tracking YT1');
    expect(await watching).toBe(0);

    const lines = out.lines.map((line) => JSON.parse(line) as AgentEvent | { type: 'text_delta'; text: string; seq?: undefined });
    // Between the events, each model reply's text (these calls do not stream: one delta each, no seq).
    const replies = lines.flatMap((line) => (line.type === 'text_delta' ? [line.text] : []));
    expect(replies.at(-1)).toBe('All done.');
    expect(lines.filter((line) => line.type === 'text_delta').every((line) => line.seq === undefined)).toBe(true);
    const events = lines.filter((line): line is AgentEvent => line.type !== 'text_delta');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const types = events.map((e) => e.type);
    const every: AgentEventType[] = [
      'iteration_started',
      'model_call_started',
      'model_call_finished',
      'tool_call_started',
      'tool_call_finished',
      'permission_requested',
      'permission_decided',
      'external_requested',
      'external_submitted',
      'run_finished',
    ];
    for (const type of every) expect(types).toContain(type);
    expect(types.indexOf('permission_requested')).toBeLessThan(types.indexOf('permission_decided'));
    expect(types.indexOf('permission_decided')).toBeLessThan(types.indexOf('tool_call_started'));
    expect(types.indexOf('external_requested')).toBeLessThan(types.indexOf('external_submitted'));
    expect(types.at(-1)).toBe('run_finished');
    const finished = events.find((e) => e.type === 'tool_call_finished' && e.tool === 'refund');
    expect(finished).toMatchObject({ state: 'success', preview: 'refunded 3 on W1' });
    expect(typeof (finished as { durationMs: number }).durationMs).toBe('number');
  });

  test('watch prints each step in words, with the command that answers a waiting call', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'refund', arguments: { order_id: 'W2', amount: 4 } }] }, 'Refunded.']);
    const run = await env.client.start('watched', { prompt: 'watch words' });
    const out = capture();
    const watching = runCli(['watch', run.workflowId, ...common], out);
    const callId = await pendingCall(env, run.workflowId, 'approval');
    await run.approve(callId);
    expect(await watching).toBe(0);
    const text = out.lines.join('\n');
    expect(text).toContain(`approve: durable-agent approve ${run.workflowId} ${callId}`);
    expect(text).toMatch(/◀ tool refund success in \d+ ms: refunded 4 on W2/);
    expect(text).toContain('■ completed: Refunded.');
  });

  test('cancelling a run cancels the tool in flight (its signal aborts)', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'long_job', arguments: {} }] }, 'never']);
    const run = await env.client.start('watched', { prompt: 'long' });
    for (;;) {
      const events = await run.eventsAfter(0);
      if (events.some((e) => e.type === 'tool_call_started')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1000));
    await run.cancel();
    const error = await run.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    for (let i = 0; i < 50 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(aborted).toEqual(['call_0_0']);
  });
});
