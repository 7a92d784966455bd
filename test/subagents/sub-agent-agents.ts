import { z } from 'zod';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import type { ModelScript, ScriptedRequest } from '../../src/testing/scripted-model-types';
import { shipTool } from '../fixtures/approval-tools';

/** When each `study` call ran, so a test can see two sub-agents' tools overlap. */
export const studyIntervals: { task: string; start: number; end: number }[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const studyStarts = new Set<string>();
const pairedTopics: Record<string, string> = { tides: 'winds', winds: 'tides' };
let studiesInPairs = false;
/** Forgets the studies of earlier runs; `inPairs` makes a study of tides or winds last until the other has started. */
export function resetStudies(options: { inPairs?: boolean } = {}): void {
  studyIntervals.length = 0;
  studyStarts.clear();
  studiesInPairs = options.inPairs ?? false;
}
/** Refunds that really ran, with their input. */
export const refunds: { orderId: string; amount: number }[] = [];

const studyTool = defineTool({
  name: 'study',
  description: 'Study a topic for a while.',
  input: z.object({ topic: z.string() }),
  readOnly: true,
  execute: async ({ topic }, ctx) => {
    const start = Date.now();
    studyStarts.add(topic);
    // A study of a pair lasts until its partner has started (20 s at most), so that two studies run side by side
    // overlap however late a busy cluster hands out the second one, and two run one after the other never do.
    const partner = studiesInPairs ? pairedTopics[topic] : undefined;
    while (partner !== undefined && !studyStarts.has(partner) && Date.now() - start < 20_000) await sleep(50);
    await sleep(400 - (Date.now() - start));
    studyIntervals.push({ task: topic, start, end: Date.now() });
    return `notes on ${topic} for ${ctx.runtime.userId ?? 'nobody'}`;
  },
});

const issueRefundTool = defineTool({
  name: 'issue_refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), amount: z.number().positive() }),
  permission: 'ask',
  execute: ({ order_id, amount }) => {
    refunds.push({ orderId: order_id, amount });
    return `refunded ${amount} on ${order_id}`;
  },
});

/** Tool calls that saw their run cancelled through ctx.signal. */
export const abortedCalls: string[] = [];

const waitForCancelTool = defineTool({
  name: 'wait_for_cancel',
  description: 'Work until cancelled.',
  input: z.object({}),
  readOnly: true,
  heartbeatTimeout: '2s',
  execute: (_input, ctx) =>
    new Promise<string>((resolve) => {
      const beat = setInterval(() => ctx.heartbeat(), 200);
      ctx.signal.addEventListener('abort', () => {
        clearInterval(beat);
        abortedCalls.push(ctx.callId);
        resolve('stopped');
      });
    }),
});

export const worker = defineAgent({ name: 'busy-worker', instructions: 'You work.', model: 'busy', tools: [waitForCancelTool] });
export const foreman = defineAgent({ name: 'foreman', instructions: 'You hand out work.', model: 'foreman', tools: [agentTool(worker, { name: 'worker' })] });

export const researcher = defineAgent({ name: 'researcher', instructions: 'You research one topic.', model: 'researcher', tools: [studyTool], maxIters: 4 });
export const lead = defineAgent({
  name: 'lead',
  instructions: 'You split research between researchers and combine their answers.',
  model: 'lead',
  tools: [agentTool(researcher, { concurrencySafe: true, description: 'Research one topic.' })],
});

export const refunder = defineAgent({ name: 'refunder', instructions: 'You issue refunds.', model: 'refunder', tools: [issueRefundTool] });
export const disputes = defineAgent({ name: 'disputes', instructions: 'You settle disputes.', model: 'disputes', tools: [agentTool(refunder)] });
export const manager = defineAgent({ name: 'manager', instructions: 'You manage customer cases.', model: 'manager', tools: [agentTool(disputes)] });

/** Its own refund asks; a person's "remember" passes to one kind of refunder sub-agent and not to the other. */
export const gatekeeper = defineAgent({
  name: 'gatekeeper',
  instructions: 'You refund, or have refunders refund.',
  model: 'gate',
  tools: [issueRefundTool, agentTool(refunder, { name: 'trusted_refunder', inheritSessionRules: true }), agentTool(refunder, { name: 'fresh_refunder' })],
});

/** Two refunders at once: both number their first call alike. */
export const twinLead = defineAgent({ name: 'twin-lead', instructions: 'You have two refunders refund.', model: 'twins', tools: [agentTool(refunder, { concurrencySafe: true })] });

export const flaky = defineAgent({ name: 'flaky', instructions: 'You fail.', model: 'flaky', tools: [studyTool] });
export const delegator = defineAgent({ name: 'delegator', instructions: 'You delegate.', model: 'delegator', tools: [agentTool(flaky)] });

export const shipper = defineAgent({ name: 'shipper', instructions: 'You ship parcels.', model: 'shipper', tools: [shipTool] });
export const logistics = defineAgent({ name: 'logistics', instructions: 'You run logistics.', model: 'logistics', tools: [agentTool(shipper)] });

/** The same researcher, started without the parent's runtime context. */
export const solo = defineAgent({
  name: 'solo',
  instructions: 'You ask a researcher who must not know the user.',
  model: 'solo',
  tools: [agentTool(researcher, { name: 'private_researcher', runtime: 'none' })],
});

/** Two sub-agent calls in two iterations, for continue-as-new between them. */
export const serial = defineAgent({ name: 'serial', instructions: 'You ask one researcher after another.', model: 'serial', tools: [agentTool(researcher)] });

export const nest = defineAgent({ name: 'nest', instructions: 'You go deeper.', model: 'nest', tools: [] });
nest.tools!.push(agentTool(nest, { maxDepth: 2, description: 'Ask a deeper level.' }));

const promptOf = (request: ScriptedRequest) => String(request.messages[1]?.content ?? '');

/** Calls `tool` with `args` first, then answers with `prefix` and what the calls returned. */
function delegateThenAnswer(calls: (request: ScriptedRequest) => { name: string; arguments: Record<string, unknown> }[], prefix: string): ModelScript {
  return (request, info) => {
    if (info.toolResults.length === 0) return { toolCalls: calls(request), usage: { promptTokens: 100, completionTokens: 10 } };
    return { text: `${prefix}: ${info.toolResults.map((r) => r.content).join(' | ')}`, usage: { promptTokens: 200, completionTokens: 20 } };
  };
}

export const subAgentScripts: Record<string, ModelScript> = {
  lead: delegateThenAnswer(() => [
    { name: 'researcher', arguments: { task: 'tides' } },
    { name: 'researcher', arguments: { task: 'winds' } },
  ], 'Combined'),
  researcher: delegateThenAnswer((request) => [{ name: 'study', arguments: { topic: promptOf(request) } }], 'Found'),
  manager: delegateThenAnswer(() => [{ name: 'disputes', arguments: { task: 'Refund ORD-7 for 20' } }], 'Manager'),
  disputes: delegateThenAnswer((request) => [{ name: 'refunder', arguments: { task: promptOf(request) } }], 'Disputes'),
  refunder: delegateThenAnswer(() => [{ name: 'issue_refund', arguments: { order_id: 'ORD-7', amount: 20 } }], 'Refunder'),
  delegator: delegateThenAnswer(() => [{ name: 'flaky', arguments: { task: 'try' } }], 'Delegator saw'),
  flaky: (_request, info) =>
    info.toolResults.length === 0
      ? { toolCalls: [{ name: 'study', arguments: { topic: 'x' } }], usage: { promptTokens: 7, completionTokens: 3 } }
      : { faults: [{ status: 400, body: { error: { message: 'Invalid request: unsupported parameter', type: 'invalid_request_error' } }, times: 10 }], text: 'unreachable' },
  logistics: delegateThenAnswer(() => [{ name: 'shipper', arguments: { task: 'Ship to Berlin' } }], 'Logistics'),
  shipper: delegateThenAnswer(() => [{ name: 'ship_parcel', arguments: { address: 'Berlin' } }], 'Shipped'),
  twins: delegateThenAnswer(() => [
    { name: 'refunder', arguments: { task: 'Refund ORD-7 for 20' } },
    { name: 'refunder', arguments: { task: 'Refund ORD-7 for 20' } },
  ], 'Twins'),
  gate: (request, info) => {
    const task = { task: 'Refund ORD-7 for 20' };
    const steps = [
      { name: 'issue_refund', arguments: { order_id: 'ORD-1', amount: 5 } },
      { name: 'trusted_refunder', arguments: task },
      { name: 'fresh_refunder', arguments: task },
    ];
    const step = steps[info.turnIndex];
    if (step) return { toolCalls: [step] };
    return { text: `Gate: ${request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)).join(' | ')}` };
  },
  foreman: delegateThenAnswer(() => [{ name: 'worker', arguments: { task: 'work' } }], 'Foreman'),
  busy: delegateThenAnswer(() => [{ name: 'wait_for_cancel', arguments: {} }], 'Worked'),
  solo: delegateThenAnswer(() => [{ name: 'private_researcher', arguments: { task: 'tides' } }], 'Solo'),
  serial: (request, info) => {
    const results = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    if (info.turnIndex < 2) return { toolCalls: [{ name: 'researcher', arguments: { task: info.turnIndex === 0 ? 'tides' : 'winds' } }] };
    return { text: `Serial: ${results.join(' | ')}` };
  },
  nest: delegateThenAnswer(() => [{ name: 'nest', arguments: { task: 'go deeper' } }], 'Level answer'),
};
