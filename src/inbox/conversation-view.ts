import type { AgentRun } from '../client/agent-run';
import { describeEdit, parsedArguments } from '../common/describe-edit';
import type { Message, ToolCall } from '../common/messages';
import { truncateText } from '../common/truncate-text';
import { html, type SafeHtml } from './html';

export const MESSAGES_PER_PAGE = 10;
const SHOWN_CHARS = 4_000;
/** Messages read before a page for the model's calls its first results answer (a batch seldom has more calls). */
const CALLS_CONTEXT = 20;

/** One page of the conversation, the newest page first (page 0), and how many pages there are. */
export interface ConversationPage {
  messages: Message[];
  index: number;
  pages: number;
  /** The model's calls of the messages before the page too, so a result can show what a person changed. */
  calls: Record<string, ToolCall>;
}

/** The page asked for, read through the run's public paged read of its messages. */
export async function readConversationPage(run: AgentRun, messageCount: number, pageIndex: number): Promise<ConversationPage> {
  const pages = Math.max(1, Math.ceil(messageCount / MESSAGES_PER_PAGE));
  const index = Math.min(Math.max(0, pageIndex), pages - 1);
  const to = messageCount - index * MESSAGES_PER_PAGE;
  // Some messages before the page too: the assistant message whose calls the page's first results answer.
  const from = Math.max(0, to - MESSAGES_PER_PAGE - CALLS_CONTEXT);
  const read = await run.messages({ from, to });
  const calls: Record<string, ToolCall> = {};
  for (const message of read.messages) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls[call.id] = call;
  const shown = read.messages.slice(Math.max(0, read.messages.length - Math.min(MESSAGES_PER_PAGE, to)));
  return { messages: shown, index, pages, calls };
}

function messageText(message: Message): string {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name} ${call.arguments}`);
    return [message.content ?? '', ...calls].filter(Boolean).join('\n');
  }
  return message.content;
}

/** A result of a call a person approved with other arguments: who changed what. */
function editNote(message: Message, calls: Record<string, ToolCall>): SafeHtml | '' {
  if (message.role !== 'tool' || !message.edit) return '';
  const call = calls[message.toolCallId];
  const what = call ? describeEdit(parsedArguments(call.arguments), message.edit.input) : `ran with ${JSON.stringify(message.edit.input)}`;
  return html`<p class="edit" data-edit>Arguments changed before approval: ${what}${message.edit.by ? html`, by <strong>${message.edit.by}</strong>` : ''}</p>`;
}

/** The page's messages (the agent's system prompt left out: it is the agent's, not the person's), with links to the pages around it. */
export function conversationView(page: ConversationPage, pageLink: (page: number) => string): SafeHtml {
  const { index, pages } = page;
  const pager =
    pages > 1
      ? html`<nav class="pager">${index < pages - 1 ? html`<a href="${pageLink(index + 1)}">← earlier</a>` : ''}<span class="muted">page ${pages - index} of ${pages}</span>${index > 0 ? html`<a href="${pageLink(index - 1)}">later →</a>` : ''}</nav>`
      : '';
  return html`${pager}${page.messages
    .filter((message) => message.role !== 'system')
    .map(
      (message) =>
        html`<div class="message ${message.role}"><div class="role">${message.role === 'tool' ? `tool ${message.name}` : message.role}</div>${editNote(message, page.calls)}<pre>${truncateText(messageText(message), SHOWN_CHARS)}</pre></div>`,
    )}`;
}
