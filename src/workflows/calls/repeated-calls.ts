import type { ToolCallResult } from '../../common/contracts/tool-calls';
import type { ToolCall, ToolMessage } from '../../common/messages';
import type { RepeatedCall } from '../../common/tool-call-record';
import { preview } from '../effects';
import type { Writing } from '../state';
import { specOf } from '../toolset';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { repeatNote } from '../../common/repeat-note';
import { canonicalJson } from '../../common/canonical-json';

/** Arguments as a value that compares equal whatever the key order or spacing the model used. */
function canonical(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text.trim();
  }
}

/** The earlier call of this run with the same tool and arguments, which ran and succeeded. */
function sameEarlierCall(state: Writing<'calls'>, call: ToolCall): { repeats: RepeatedCall; result: ToolMessage } | undefined {
  const wanted = canonical(call.arguments);
  const results = new Map(state.messages.flatMap((message) => (message.role === 'tool' && message.state === 'success' ? [[message.toolCallId, message] as const] : [])));
  for (const message of state.messages) {
    if (message.role !== 'assistant') continue;
    for (const earlier of message.toolCalls ?? []) {
      const result = results.get(earlier.id);
      if (result && earlier.id !== call.id && earlier.name === call.name && canonical(earlier.arguments) === wanted) {
        return { repeats: { callId: earlier.id, preview: preview(result.content) }, result };
      }
    }
  }
  return undefined;
}

/**
 * The call of this run that the given one repeats: the same tool (not read-only, where a repeat
 * matters) with the same arguments, which ran and succeeded. Small models ask for the same refund
 * again and again, each under a new call id, so under a new idempotency key.
 */
export function earlierRun(state: Writing<'calls'>, call: ToolCall): { repeats: RepeatedCall; result: ToolMessage } | undefined {
  const spec = specOf(state.descriptor, call.name);
  if (!spec || spec.readOnly) return undefined;
  return sameEarlierCall(state, call);
}

/**
 * The earlier call a repeated one is answered from without running: any repeat of an agent with
 * `repeatedCalls: 'reuse'`; a read-only tool's repeat in runs whose worker named the behaviour
 * (small models call the same lookup again and again, and reading the same answer helps them on).
 */
export function reusableRun(state: Writing<'calls'>, call: ToolCall): { repeats: RepeatedCall; result: ToolMessage } | undefined {
  const spec = specOf(state.descriptor, call.name);
  if (!spec) return undefined;
  const reuse = spec.readOnly ? hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.reuseReadOnlyRepeats) : state.descriptor.repeatedCalls === 'reuse';
  return reuse ? sameEarlierCall(state, call) : undefined;
}

/** What an agent that reuses repeated calls answers instead of running one again. */
export function reusedResult(found: NonNullable<ReturnType<typeof earlierRun>>): ToolCallResult {
  return {
    content: repeatNote(found.repeats.callId, found.result.content),
    state: 'success',
  };
}
