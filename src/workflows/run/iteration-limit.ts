import type { Message, ToolCall, ToolMessage, UserMessage } from '../../common/messages';

export function limitMessage(maxIters: number): string {
  return `Tool execution cancelled because maximum iterations limit (${maxIters}) was reached`;
}

/** Calls of the reply that hit the limit are not run; each gets a result naming the limit. */
export function cancelledAtLimit(calls: ToolCall[], maxIters: number): ToolMessage[] {
  return calls.map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: `Error: ${limitMessage(maxIters)}.`,
    state: 'cancelled',
  }));
}

export function summaryRequest(maxIters: number): UserMessage {
  return {
    role: 'user',
    content:
      `The maximum number of iterations (${maxIters}) was reached and tools are no longer available. ` +
      'Answer now: summarize what was done, the results so far, and what remains.',
  };
}

/**
 * The output of a loop that ended at its limit: the summary (the last message), unless it holds no
 * text. A summary that was only a call written as text comes back empty (the worker takes out a
 * call it cannot run, see model/text-tool-calls.ts), and an empty one is no answer either: the
 * output is then the last text the model wrote in this loop (its messages from `from`), or a note
 * that it gave none. Only the output changes, no command, so recorded runs replay the same.
 */
export function summaryOutput(messages: readonly Message[], from: number, maxIters: number): string {
  for (let i = messages.length - 1; i >= from; i--) {
    const message = messages[i]!;
    if (message.role === 'assistant' && message.content && message.content.trim() !== '') return message.content;
  }
  return `No answer: the iteration limit (${maxIters}) was reached and the model wrote no summary.`;
}

export const EMPTY_REPLY_REMINDER: UserMessage = {
  role: 'user',
  content: 'Your last reply was empty. Answer the request, or call a tool if you need one.',
};

export function isEmptyReply(text: string | null | undefined, calls: ToolCall[] | undefined): boolean {
  return (calls?.length ?? 0) === 0 && (text ?? '').trim() === '';
}
