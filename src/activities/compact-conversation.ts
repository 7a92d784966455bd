import { Context } from '@temporalio/activity';
import type { ModelSettings } from '../common/agent';
import type { Message, TokenUsage } from '../common/messages';
import { withAutoHeartbeat } from './auto-heartbeat';
import type { ChatModelPort } from './call-model';
import type { ConversationCache } from './conversation-cache';
import { conversationPrefix } from './conversation-for-call';
import type { ConversationReader } from '../client/conversation-reader';

export interface CompactConversationRequest {
  agent: string;
  /** The model that writes the summary; '' for the worker's default. */
  model: string;
  settings: ModelSettings;
  /** The conversation's identity (as in model calls) and the messages to summarise: `from` up to `upTo`. */
  conversationId: string;
  from: number;
  upTo: number;
  /** The summary that already stands for the messages before `from`. */
  previousSummary?: string;
  /** The most characters of transcript the summary request carries (newest kept). */
  maxChars: number;
}

export interface CompactConversationOutput {
  summary: string;
  usage: TokenUsage;
  model: string;
}

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
    const response = await withAutoHeartbeat(() =>
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
        { signal: ctx.cancellationSignal },
      ),
    );
    return { summary: response.message.content ?? '', usage: response.usage, model: response.model };
  };
}
