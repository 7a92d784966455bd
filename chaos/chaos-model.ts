import type { ScriptFunction } from '../src/testing/scripted-model-types';

export const finalAnswer = (steps: number) => `all ${steps} steps applied`;

/**
 * The model of the chaos run behaves as a real one would: it applies the steps one call at a time
 * and, told that a step failed, asks for it again (a new call, so a new idempotency key and a
 * second effect: what the ledger must never show).
 */
export function chaosModel(steps: number): ScriptFunction {
  return (request) => {
    const applied = request.messages.filter((m) => m.role === 'tool' && typeof m.content === 'string' && /^step \d+ applied$/.test(m.content)).length;
    if (applied >= steps) return finalAnswer(steps);
    return { toolCalls: [{ name: 'apply_effect', arguments: { step: applied + 1 } }] };
  };
}
