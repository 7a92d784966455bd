import { z } from 'zod';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';
import { EffectLedger } from './effect-ledger';

export const CHAOS_AGENT = 'chaos-ledger';

const ledger = new EffectLedger(process.env.CHAOS_LEDGER_DIR ?? 'chaos-ledger');
const [minMs, maxMs] = (process.env.CHAOS_TOOL_MS ?? '200-1200').split('-').map(Number) as [number, number];

/**
 * A side effect with the defaults of any side-effecting tool (no retry settings of its own): it is
 * applied first, then the call takes a while, so workers die both before and after applying it.
 */
const applyEffect = defineTool({
  name: 'apply_effect',
  description: 'Apply one step of the plan (a side effect, e.g. a refund). Idempotent per call.',
  input: z.object({ step: z.number().int().positive() }),
  execute: async ({ step }, ctx) => {
    ledger.apply(ctx.idempotencyKey, step);
    await new Promise((resolve) => setTimeout(resolve, minMs + Math.random() * (maxMs - minMs)));
    return `step ${step} applied`;
  },
});

export const agents = [
  defineAgent({ name: CHAOS_AGENT, instructions: 'Apply every step of the plan, one call per step, in order.', tools: [applyEffect] }),
];
