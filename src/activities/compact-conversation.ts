import { Context } from '@temporalio/activity';
import type { Message } from '../common/messages';
import type { CompactConversationOutput, CompactConversationRequest } from '../common/contracts/compaction';
import { runAttempt } from './step-attempt';
import { FailureTypes } from '../common/failures';
import type { ChatModelPort } from '../common/contracts/model-call';
import type { ConversationCache } from './conversation-cache';
import { conversationPrefix } from './conversation-for-call';
import type { ConversationReader } from '../common/contracts/conversation-reader';

const PER_MESSAGE_CHARS = 4000;

const INSTRUCTIONS =
  'You condense conversations between a user and an assistant that uses tools. Write a summary that ' +
  'lets the assistant go on without the original messages: the user\'s requests and preferences, facts ' +
  'and identifiers learned (order numbers, names, amounts), what each tool returned that still matters, ' +
  'decisions taken, approvals given or refused, and what is still open. Plain text, no preamble.';

function clip(text: string): string {
  return text.length > PER_MESSAGE_CHARS ? `${text.slice(0, PER_MESSAGE_CHARS)} …[cut]` : text;
}

function line(message: Message): string {
  if (message.role === 'tool') return `tool ${message.name} result: ${clip(message.content)}`;
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${clip(typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments))})`);
    return `assistant: ${clip(message.content ?? '')}${calls.length ? ` [calls ${calls.join(', ')}]` : ''}`;
  }
  return `${message.role}: ${clip(typeof message.content === 'string' ? message.content : JSON.stringify(message.content))}`;
}

/** The transcript of the messages to summarise, newest kept when it would pass `maxChars`. */
export function transcript(messages: Message[], maxChars: number): string {
  const lines: string[] = [];
  let chars = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const next = line(messages[i]!);
    if (chars + next.length > maxChars && lines.length > 0) break;
    lines.unshift(next);
    chars += next.length + 1;
  }
  return lines.join('\n');
}

/**
 * Summarises the oldest messages of a conversation (with the summary that already stands for the
 * ones before) into one text that replaces them in what the model is sent; the messages
 * themselves stay in the run.
 */
export function compactConversationActivity(model: ChatModelPort, reader: ConversationReader, cache: ConversationCache) {
  return async function compactConversation(request: CompactConversationRequest): Promise<CompactConversationOutput> {
    const ctx = Context.current();
    const { workflowId, runId } = ctx.info.workflowExecution ?? { workflowId: '', runId: '' };
    const { messages } = await conversationPrefix(request.conversationId, request.upTo, { workflowId, runId }, cache, reader);
    const earlier = request.previousSummary ? `Summary so far:\n${request.previousSummary}\n\nThe conversation since:\n` : 'The conversation:\n';
    const attempt = { budget: request.budget, subject: `Model ${request.model || request.settings.name || 'the default model'}`, timeoutType: FailureTypes.modelTimeout };
    const response = await runAttempt(attempt, (controls) =>
      model.complete(
        {
          model: request.model || undefined,
          messages: [
            { role: 'system', content: INSTRUCTIONS },
            { role: 'user', content: `${earlier}${transcript(messages.slice(request.from, request.upTo), request.maxChars)}` },
          ],
          tools: [],
          settings: { ...request.settings, stream: false, toolChoice: undefined, parallelToolCalls: undefined },
        },
        { signal: controls.signal },
      ),
    );
    return { summary: response.message.content ?? '', usage: response.usage, model: response.model };
  };
}
