import type { Message } from '../common/messages';
import { truncateText } from '../common/truncate-text';
import { html, type SafeHtml } from './html';

export const MESSAGES_PER_PAGE = 10;
const SHOWN_CHARS = 4_000;

function messageText(message: Message): string {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name} ${call.arguments}`);
    return [message.content ?? '', ...calls].filter(Boolean).join('\n');
  }
  return message.content;
}

/**
 * The conversation so far, a page at a time, the newest page first (page 0); the system prompt
 * is left out (it is the agent's, not the person's).
 */
export function conversationView(messages: Message[], pageIndex: number, pageLink: (page: number) => string): SafeHtml {
  const shown = messages.filter((message) => message.role !== 'system');
  const pages = Math.max(1, Math.ceil(shown.length / MESSAGES_PER_PAGE));
  const index = Math.min(Math.max(0, pageIndex), pages - 1);
  const end = shown.length - index * MESSAGES_PER_PAGE;
  const slice = shown.slice(Math.max(0, end - MESSAGES_PER_PAGE), end);
  const pager =
    pages > 1
      ? html`<nav class="pager">${index < pages - 1 ? html`<a href="${pageLink(index + 1)}">← earlier</a>` : ''}<span class="muted">page ${pages - index} of ${pages}</span>${index > 0 ? html`<a href="${pageLink(index - 1)}">later →</a>` : ''}</nav>`
      : '';
  return html`${pager}${slice.map(
    (message) => html`<div class="message ${message.role}"><div class="role">${message.role === 'tool' ? `tool ${message.name}` : message.role}</div><pre>${truncateText(messageText(message), SHOWN_CHARS)}</pre></div>`,
  )}`;
}
