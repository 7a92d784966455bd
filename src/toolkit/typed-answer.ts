import type { ZodTypeAny } from 'zod';
import type { CheckedOutput } from '../common/typed-output';

/**
 * The JSON of an answer given as text. Models asked for JSON without a response format (and some
 * with one) wrap it in a Markdown code fence; the fence is taken off, nothing else is guessed.
 */
export function answerJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  if (body === '') return { ok: false, problem: 'the answer is empty: answer with one JSON value of the required schema' };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, problem: `the answer is not JSON (${(error as Error).message}): answer with only the JSON value, no other text` };
  }
}

/**
 * Checks an answer against the agent's schema. What fits is kept as the model wrote it (JSON), so
 * a reader who has the schema parses it to the same typed value, transforms included.
 */
export function checkAnswer(schema: ZodTypeAny, value: unknown): CheckedOutput {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value };
  return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `/${issue.path.join('/')}` : '(the answer)'}: ${issue.message}`) };
}
