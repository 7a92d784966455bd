import { z } from 'zod';
import type { PolicyAnswer } from './policy-request';

/** What a Rego policy's entrypoint and the judge answer: `{ outcome, reason }`; anything else is no answer. */
export const policyAnswerSchema = z.object({
  outcome: z.enum(['allow', 'deny', 'ask']),
  reason: z.string().trim().min(1).max(2_000),
});

/** The answer, or why it is none (the door then asks a person). */
export function readAnswer(value: unknown): { answer: PolicyAnswer } | { problem: string } {
  const parsed = policyAnswerSchema.safeParse(value);
  if (parsed.success) return { answer: parsed.data };
  const shown = JSON.stringify(value) ?? String(value);
  return { problem: `not { outcome: allow|deny|ask, reason }: ${shown.length > 200 ? `${shown.slice(0, 199)}…` : shown}` };
}
