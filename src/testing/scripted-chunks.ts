import type { ScriptedUsage } from './scripted-model-types';
import { type CompletionMeta, usageBody } from './scripted-completion';
import { finishReasonOf, type ResolvedTurn } from './scripted-turn';

export function splitText(text: string, size: number): string[] {
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += step) pieces.push(text.slice(start, start + step));
  return pieces;
}

type ToolCallDelta = {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
};

/** Per call: a head with id and name and empty arguments, then the argument fragments. */
function toolCallDeltas(turn: ResolvedTurn, chunkSize: number): ToolCallDelta[][] {
  return turn.toolCalls.map((call, index) => {
    const fragments = splitText(call.arguments, chunkSize);
    const tail = fragments.map((fragment, position): ToolCallDelta => {
      const isLast = position === fragments.length - 1;
      return {
        index,
        function:
          turn.spec.nameOnLastFragment && isLast ? { name: call.name, arguments: fragment } : { arguments: fragment },
      };
    });
    const head: ToolCallDelta = { index, type: 'function', function: { name: call.name, arguments: '' } };
    if (call.id !== undefined) head.id = call.id;
    return [head, ...tail];
  });
}

/** Round-robin over the calls, so parallel calls arrive interleaved. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let round = 0; round < longest; round++) {
    for (const list of lists) if (round < list.length) out.push(list[round]);
  }
  return out;
}

/** The `data:` payloads of a streamed chat completion, in OpenAI's chunk format, ending with `[DONE]`. */
export function streamPayloads(
  turn: ResolvedTurn,
  usage: ScriptedUsage,
  meta: CompletionMeta,
  options: { chunkSize: number; includeUsage: boolean },
): string[] {
  const chunkSize = turn.spec.chunkSize ?? options.chunkSize;
  const hasCalls = turn.toolCalls.length > 0;
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...usageField,
  });

  const chunks: unknown[] = [
    chunk({ role: 'assistant', content: hasCalls && turn.text === '' ? null : '', refusal: null }),
    ...splitText(turn.text, chunkSize).map((piece) => chunk({ content: piece })),
    ...interleave(toolCallDeltas(turn, chunkSize)).map((delta) => chunk({ tool_calls: [delta] })),
    chunk({}, finishReasonOf(turn)),
  ];
  if (options.includeUsage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: null,
      choices: [],
      usage: usageBody(usage),
    });
  }
  return [...chunks.map((value) => JSON.stringify(value)), '[DONE]'];
}
