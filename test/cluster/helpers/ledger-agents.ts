import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { chaosModel } from '../../../chaos/chaos-model';
import type { EffectLedger } from '../../../chaos/effect-ledger';
import type { ModelScript } from '../../../src/testing/scripted-model-types';
import { defineAgent } from '../../../src/toolkit/define-agent';
import { defineTool } from '../../../src/toolkit/define-tool';

export const STEPS = 3;
export const STEPS_AGENT = 'ledger-steps';
export const REFUND_AGENT = 'ledger-refund';
export const REFUND_ANSWER = 'refund done';
const STEPS_MODEL = 'steps-model';
const REFUND_MODEL = 'refund-model';

/**
 * The chaos run's agent (side-effecting steps of 300–1500 ms, each effect in the ledger under its
 * call's idempotency key) and one whose only call, a refund, waits for a person's approval.
 */
export function ledgerAgents(ledger: EffectLedger) {
  const applyEffect = defineTool({
    name: 'apply_effect',
    description: 'Apply one step of the plan (a side effect). Idempotent per call.',
    input: z.object({ step: z.number().int().positive() }),
    execute: async ({ step }, ctx) => {
      ledger.apply(ctx.idempotencyKey, step);
      await sleep(300 + Math.random() * 1200);
      return `step ${step} applied`;
    },
  });
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    input: z.object({ order_id: z.string() }),
    execute: ({ order_id }, ctx) => {
      ledger.apply(ctx.idempotencyKey, 1);
      return `refunded ${order_id}`;
    },
  });
  return [
    defineAgent({ name: STEPS_AGENT, instructions: 'Apply every step of the plan, one call per step.', tools: [applyEffect], model: STEPS_MODEL }),
    defineAgent({ name: REFUND_AGENT, instructions: 'Refund when asked.', tools: [refund], model: REFUND_MODEL, permissions: { ask: ['refund'] } }),
  ];
}

export const ledgerModels: Record<string, ModelScript> = {
  [STEPS_MODEL]: chaosModel(STEPS),
  [REFUND_MODEL]: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'ORD-1' } }] } : REFUND_ANSWER),
};
