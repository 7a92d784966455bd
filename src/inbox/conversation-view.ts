import type { AgentRun } from '../client/agent-run';
import { conversationPageQuery } from '../common/definitions';
import type { Message } from '../common/messages';
import type { AgentRunState } from '../common/run';
import { truncateText } from '../common/truncate-text';
import { html, type SafeHtml } from './html';

export const MESSAGES_PER_PAGE = 10;
const SHOWN_CHARS = 4_000;
const PAGE_BYTES = 1024 * 1024;

/** One page of the conversation, the newest page first (page 0), and how many pages there are. */
export interface ConversationPage {
  messages: Message[];
  index: number;
  pages: number;
}

/**
 * The page asked for: from the state's newest messages when they hold it, otherwise read with the
 * `conversationPage` query (a long run's state holds only its newest messages).
 */
export async function readConversationPage(run: AgentRun, state: AgentRunState, pageIndex: number): Promise<ConversationPage> {
  const count = state.messageCount ?? state.messages.length;
  const pages = Math.max(1, Math.ceil(count / MESSAGES_PER_PAGE));
  const index = Math.min(Math.max(0, pageIndex), pages - 1);
  const to = count - index * MESSAGES_PER_PAGE;
  const from = Math.max(0, to - MESSAGES_PER_PAGE);
  const firstHeld = count - state.messages.length;
  if (from >= firstHeld) return { messages: state.messages.slice(from - firstHeld, to - firstHeld), index, pages };
  const messages = await run.handle.query(conversationPageQuery, { from, to, maxBytes: PAGE_BYTES });
  return { messages, index, pages };
}

function messageText(message: Message): string {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name} ${call.arguments}`);
    return [message.content ?? '', ...calls].filter(Boolean).join('\n');
  }
  return message.content;
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
        html`<div class="message ${message.role}"><div class="role">${message.role === 'tool' ? `tool ${message.name}` : message.role}</div><pre>${truncateText(messageText(message), SHOWN_CHARS)}</pre></div>`,
    )}`;
}
