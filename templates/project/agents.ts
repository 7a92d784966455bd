// Your agents: a worker serves them (`npm run worker`), a client starts runs of them (`npm run ask`).
import { z } from 'zod';
import { defineAgent, defineTool } from 'durable-agent';

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look an order up by its id: status and delivery estimate.',
  input: z.object({ order_id: z.string().describe('The order id, e.g. A-1001') }),
  readOnly: true,
  execute: async ({ order_id }) => ({ order_id, status: 'shipped', eta: 'tomorrow' }),
});

const refund = defineTool({
  name: 'refund',
  description: 'Refund an amount on an order.',
  input: z.object({ order_id: z.string(), amount: z.number().positive() }),
  // The key is the same when a lost worker's call runs again: give it to your payment API.
  execute: async ({ order_id, amount }, ctx) => `Refund of ${amount} on ${order_id} requested (key ${ctx.idempotencyKey})`,
});

export const support = defineAgent({
  name: 'support',
  instructions: 'You help customers with their orders. Look orders up before you answer; refund only what the customer asks for.',
  tools: [lookupOrder, refund],
  // Every refund waits for a person: `npx durable-agent pending`, then `npx durable-agent approve RUN CALL`.
  permissions: { ask: ['refund'] },
});

export const agents = [support];

// This project's task queue: its workers serve it, its clients start runs on it. Agents modules of
// other projects belong on queues of their own (TEMPORAL_TASK_QUEUE overrides it).
export const taskQueue = '{{taskQueue}}';
