import { windowedMessages } from '../../common/memory';
import { jsonChars } from '../../common/messages';
import type { Reading } from '../state';

/** Characters per token for estimates: the usual figure for English text and JSON with OpenAI's tokenizers. */
export const CHARS_PER_TOKEN = 4;
/**
 * Tokens of the next model call's conversation: the previous call's reported prompt and completion
 * tokens plus an estimate (characters of JSON ÷ 4) of the messages added since; the estimate alone
 * when there is no reported usage (the first call, after a compaction or a continue-as-new).
 */
export function estimatedTokens(state: Reading): number {
  const last = state.lastCall;
  if (last && last.promptTokens > 0 && last.messageCount <= state.messages.length) {
    return last.promptTokens + last.completionTokens + Math.ceil(jsonChars(state.messages.slice(last.messageCount)) / CHARS_PER_TOKEN);
  }
  return Math.ceil(jsonChars(windowedMessages(state.messages, state.window)) / CHARS_PER_TOKEN);
}

