import { defineAgent } from '../../../src/toolkit/define-agent';
import { lookupTool, refundTool, shipTool } from '../../fixtures/approval-tools';

/** Two refunds that ask, a parcel shipped from outside, and a group to switch. */
export const boundaryAgent = defineAgent({
  name: 'boundary',
  instructions: 'Refund and ship when asked.',
  tools: [refundTool, lookupTool, shipTool],
  permissions: { ask: ['refund'] },
  groups: [{ name: 'extras', description: 'Lookups.', tools: ['lookup'] }],
  maxResultChars: 1_000,
});

export const PARKED_BATCH = [
  { name: 'refund', arguments: { order_id: 'A1', amount: 10 } },
  { name: 'refund', arguments: { order_id: 'B2', amount: 20 } },
  { name: 'ship_parcel', arguments: { address: 'Via Roma 1' } },
];
