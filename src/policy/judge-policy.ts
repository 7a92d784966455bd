import type { ChatModelPort } from '../common/contracts/model-call';
import { readAnswer } from './answer-schema';
import type { ApprovalPolicy, PolicyAnswer, PolicyRequest } from './policy-request';

export const DEFAULT_JUDGE_TIMEOUT_MS = 20_000;

/** The judge's instructions: the rubric, and the one shape of answer that is read. */
export function judgeInstructions(rubric: string): string {
  return [
    "You review one tool call an AI agent wants to make, before it runs. The agent's rules would ask a person about it;",
    'you decide whether it may run (allow), must not run (deny), or a person should decide (ask).',
    'Decide by this rubric:',
    rubric.trim(),
    'Answer with one JSON object and nothing else: {"outcome": "allow" | "deny" | "ask", "reason": "<one short sentence a person can read>"}.',
    'When the rubric does not settle it, answer ask.',
  ].join('\n\n');
}

/** A JSON object in the reply's text, with or without a code fence around it. */
function jsonIn(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  return JSON.parse(body);
}

/** A model (the worker's model client) with a rubric. An unreadable answer, an error or no answer in time throws: a person is asked. */
export function judgePolicy(spec: { name: string; version: string; rubric: string; model?: string; timeoutMs?: number }, model: ChatModelPort): ApprovalPolicy {
  const system = judgeInstructions(spec.rubric);
  const timeoutMs = spec.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
  return {
    name: spec.name,
    version: spec.version,
    async decide(request: PolicyRequest): Promise<PolicyAnswer> {
      const reply = await model.complete(
        {
          ...(spec.model ? { model: spec.model } : {}),
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: JSON.stringify(request, null, 2) },
          ],
          tools: [],
          settings: { temperature: 0, stream: false },
        },
        { signal: AbortSignal.timeout(timeoutMs) },
      );
      const text = reply.message.content ?? '';
      let value: unknown;
      try {
        value = jsonIn(text);
      } catch {
        throw new Error(`the judge's answer is not JSON: ${text.length > 200 ? `${text.slice(0, 199)}…` : text || '(empty)'}`);
      }
      const read = readAnswer(value);
      if ('problem' in read) throw new Error(`the judge's answer is ${read.problem}`);
      return read.answer;
    },
  };
}
