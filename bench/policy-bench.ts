import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { createActivities } from '../src/activities/create-activities';
import { queryConversationReader } from '../src/activities/query-conversation-reader';
import { AgentClient } from '../src/client/agent-client';
import { createChatModel } from '../src/model/create-chat-model';
import { ApprovalPolicies } from '../src/policy/approval-policies';
import { agentWorkflowSinks } from '../src/telemetry/agent-workflow-sinks';
import { AgentRegistry } from '../src/toolkit/agent-registry';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';
import { BenchModels } from './bench-agents';
import { loadAverage } from './load-average';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

/** The model the policy part's agents use: one `refund` of 50 on order P1, then `done` (bench/model-scripts.ts). */
const POLICY_BENCH_MODEL = BenchModels.policy;

const FIXTURES = join(__dirname, '..', 'test', 'fixtures', 'policies');
const refund = defineTool({ name: 'refund', description: 'Refund an order.', input: z.object({ order_id: z.string(), amount: z.number() }), execute: () => 'refunded' });
const shop = (name: string, policed: Parameters<typeof defineAgent>[0]['approvalPolicy'] | undefined) =>
  defineAgent({
    name,
    instructions: 'Refund once, then answer.',
    tools: [refund],
    model: POLICY_BENCH_MODEL,
    // The unpoliced agent's rules allow the call; the others' rules ask, and their policy allows it.
    // Both default to ask, so every call takes the same path (checked before it runs, see may-ask.ts).
    permissions: policed ? { default: 'ask' } : { default: 'ask', allow: ['refund'] },
    ...(policed ? { approvalPolicy: policed } : {}),
  });
const KINDS = {
  unpoliced: shop('policy-none', undefined),
  cedar: shop('policy-cedar', { kind: 'cedar', name: 'refunds', version: '3', file: join(FIXTURES, 'refunds.cedar') }),
  rego: shop('policy-rego', { kind: 'rego', name: 'refunds-rego', version: '1', file: join(FIXTURES, 'refunds.wasm') }),
};
type Kind = keyof typeof KINDS;
const ORDER: Kind[] = ['unpoliced', 'cedar', 'rego'];

function line(label: string, samples: number[], unit: string, digits: number): string {
  return `${label.padEnd(34)} p50 ${median(samples).toFixed(digits)} ${unit}  p99 ${percentile(samples, 99).toFixed(digits)} ${unit}  (${samples.length} samples)`;
}

/** Times each kind in turn, round after round, so all see the same machine. */
async function interleaved(rounds: number, warmup: number, work: (kind: Kind, round: number) => Promise<void>): Promise<Record<Kind, number[]>> {
  const samples: Record<Kind, number[]> = { unpoliced: [], cedar: [], rego: [] };
  for (let round = -warmup; round < rounds; round++) {
    for (const kind of ORDER) {
      const began = performance.now();
      await work(kind, round);
      if (round >= 0) samples[kind].push(performance.now() - began);
    }
  }
  return samples;
}

/**
 * What an approval policy costs, side by side with an unpoliced call, in one run: (a) the check
 * alone (the prepareToolCalls activity's function, in this process: rules, then the policy), and
 * (b) whole runs of one refund call on the dev server, whose rules allow it (unpoliced) or ask and
 * whose Cedar or Rego policy allows it.
 */
export async function measurePolicies(options: { connection: NativeConnection; address: string; modelUrl: string; bundle: { code: string }; rounds: number; checks: number }): Promise<SummaryRow[]> {
  const taskQueue = 'bench-policy';
  const agents = Object.values(KINDS);
  const registry = new AgentRegistry(agents, { defaultModel: POLICY_BENCH_MODEL });
  const policies = await ApprovalPolicies.load({ agents, warn: (message) => console.error(message) });
  const activities = createActivities({
    registry,
    model: createChatModel({ baseURL: options.modelUrl, apiKey: 'bench', defaultModel: POLICY_BENCH_MODEL }),
    conversations: queryConversationReader(new Client({ connection: options.connection })),
    policies,
  });

  // (a) The check alone.
  const call = { id: 'c1', name: 'refund', arguments: JSON.stringify({ order_id: 'P1', amount: 50 }) };
  const checks = await interleaved(options.checks, Math.min(200, options.checks), async (kind) => {
    const [prepared] = await activities.prepareToolCalls({ agent: KINDS[kind].name, calls: [call], mode: 'default', sessionRules: [], runtime: { userId: 'bench' }, onMissing: 'fail' });
    if (prepared?.outcome !== 'run') throw new Error(`the ${kind} check did not allow the call: ${JSON.stringify(prepared)}`);
  });

  // (b) Whole runs.
  const worker = await Worker.create({ connection: options.connection, taskQueue, activities, workflowBundle: options.bundle, sinks: agentWorkflowSinks() });
  const running = worker.run();
  const client = await AgentClient.connect({ address: options.address, taskQueue });
  let runs: Record<Kind, number[]>;
  try {
    runs = await interleaved(options.rounds, 3, async (kind, round) => {
      const run = await client.start(KINDS[kind].name, { prompt: 'refund P1', userId: 'bench', id: `policy-${kind}-${round + 3}` });
      const result = await run.result();
      if (result.output !== 'done' || !result.messages.some((m) => m.role === 'tool' && m.content === 'refunded')) throw new Error(`the ${kind} run did not refund: ${result.output}`);
    });
  } finally {
    await client.close();
    worker.shutdown();
    await running;
  }

  const us = (samples: number[]) => samples.map((ms) => ms * 1000);
  console.log(`\nApproval policies: each kind in turn, round after round; ${loadAverage()}`);
  console.log(`(a) the check alone (rules, then the policy), in-process:`);
  for (const kind of ORDER) console.log(`    ${line(kind === 'unpoliced' ? 'unpoliced (the rules allow)' : `${kind} policy allows`, us(checks[kind]), 'µs', 1)}`);
  console.log(`(b) a whole run with one refund call, on the dev server:`);
  for (const kind of ORDER) console.log(`    ${line(kind === 'unpoliced' ? 'unpoliced (the rules allow)' : `${kind} policy allows`, runs[kind], 'ms', 1)}`);
  const load = loadavg()[0];
  return ORDER.flatMap((kind) => [
    { part: 'policy', figure: `check, ${kind}: p50 / p99 µs`, value: `${(median(checks[kind]) * 1000).toFixed(1)} / ${(percentile(checks[kind], 99) * 1000).toFixed(1)}`, target: '', load },
    { part: 'policy', figure: `run, ${kind}: p50 / p99 ms`, value: `${median(runs[kind]).toFixed(1)} / ${percentile(runs[kind], 99).toFixed(1)}`, target: '', load },
  ]);
}
