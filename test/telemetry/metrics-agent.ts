import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, refundTool } from '../fixtures/approval-tools';

/** The agent of the metrics test, shared by the test and its worker process. */
export const metricsShop = defineAgent({ name: 'metrics-shop', instructions: 'Look up, then refund.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });
