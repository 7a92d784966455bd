import { z } from 'zod';
import { shortJson } from './canonical-json';
import type { JudgeVerdict } from './eval-report';

/** The judge: a model at an OpenAI-compatible endpoint (the worker's OPENAI_BASE_URL by default). */
export interface JudgeSettings {
  model: string;
  baseURL?: string;
  apiKey?: string;
}

export interface JudgedRun {
  rubric: string;
  turns: readonly string[];
  /** The tools the agent called, one line each. */
  calls: readonly string[];
  answer: string;
}

export const judgeReplySchema = z.object({ verdict: z.enum(['pass', 'fail']), reason: z.string().min(1) });

const INSTRUCTIONS =
  'You grade the work of an AI agent against a rubric. Read the rubric, the user messages, the tools the agent called and its final answer. ' +
  'Reply with one JSON object and nothing else: {"verdict": "pass" or "fail", "reason": "one or two sentences"}.';

export function judgePrompt(run: JudgedRun): string {
  return [
    `Rubric:\n${run.rubric}`,
    `User messages:\n${run.turns.map((turn, index) => `${index + 1}. ${turn}`).join('\n')}`,
    `Tools called:\n${run.calls.length > 0 ? run.calls.join('\n') : '(none)'}`,
    `Final answer:\n${run.answer}`,
  ].join('\n\n');
}

/** The judge's reply as a verdict; a reply that is not `{verdict, reason}` JSON is a failed judgement saying so. */
export function verdictOf(reply: string): JudgeVerdict {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  let json: unknown;
  try {
    json = JSON.parse(start >= 0 && end > start ? reply.slice(start, end + 1) : reply);
  } catch {
    return { verdict: 'fail', reason: `the judge's reply is not JSON: ${shortJson(reply, 200)}` };
  }
  const parsed = judgeReplySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { verdict: 'fail', reason: `the judge's reply is not {"verdict": "pass"|"fail", "reason": "…"} (${issue?.path.join('.') || 'reply'}: ${issue?.message}): ${shortJson(reply, 200)}` };
  }
  return parsed.data;
}

/** Asks the judge model for a verdict; a failed call is a failed judgement with the reason, never a crash. */
export async function judge(settings: JudgeSettings, run: JudgedRun): Promise<JudgeVerdict> {
  const { default: OpenAI } = require('openai') as typeof import('openai');
  const client = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey ?? 'unused', maxRetries: 2, timeout: 120_000 });
  try {
    const reply = await client.chat.completions.create({
      model: settings.model,
      temperature: 0,
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: judgePrompt(run) },
      ],
    });
    return verdictOf(reply.choices[0]?.message?.content ?? '');
  } catch (error) {
    return { verdict: 'fail', reason: `the judge model ${settings.model} could not be asked: ${(error as Error).message}` };
  }
}
