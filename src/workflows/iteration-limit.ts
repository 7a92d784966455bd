import type { ToolCall, ToolMessage, UserMessage } from '../common/messages';

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

export const EMPTY_REPLY_REMINDER: UserMessage = {
  role: 'user',
  content: 'Your last reply was empty. Answer the request, or call a tool if you need one.',
};

export function isEmptyReply(text: string | null | undefined, calls: ToolCall[] | undefined): boolean {
  return (calls?.length ?? 0) === 0 && (text ?? '').trim() === '';
}
