// The README's first agent ("A first agent"), as it is shown there but for the import: the agents
// module of the support eval (support.eval.ts). test/eval/support-suite.test.ts checks that it is
// still the README's.
import { z } from 'zod';
import { defineAgent, defineTool } from '../../src/index';

const shipments: Record<string, string> = { 'ORD-2024-001': 'in transit, arriving tomorrow' };

const trackLogistics = defineTool({
  name: 'track_logistics',
  description: 'Track the shipping status of an order.',
  input: z.object({ order_id: z.string().describe('Order id, e.g. ORD-2024-001') }),
  readOnly: true, // concurrency-safe, allowed in explore mode, retried with backoff
  execute: async ({ order_id }) => shipments[order_id] ?? `No order ${order_id}`,
});

const requestRefund = defineTool({
  name: 'request_refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), reason: z.string() }),
  // The key is the same across retries and crashed workers: give it to your payment API.
  execute: async ({ order_id }, ctx) => `Refund of ${order_id} for ${ctx.runtime.userId} requested (key ${ctx.idempotencyKey})`,
});

export const agents = [
  defineAgent({
    name: 'support',
    instructions: 'You are a customer-service agent. Use the tools; never guess order data.',
    tools: [trackLogistics, requestRefund],
    permissions: { mode: 'default', ask: ['request_refund'] }, // a person approves every refund
    maxIters: 10,
  }),
];
