import type { Message } from './messages';

/** An agent's context budget: what `defineAgent({ memory })` takes. */
export interface MemorySettings {
  /**
   * Tokens the conversation sent to the model may take. Before a model call whose conversation
   * would pass it, the oldest messages are summarised into one message that stands for them.
   */
  maxTokens: number;
  /** Newest messages always sent as they are (default 8); the window never starts on a tool result. */
  keepRecentMessages?: number;
  /** How the oldest messages are replaced; `summarize` (a model call) is the one there is. */
  strategy?: 'summarize';
  /** The model that writes the summary (e.g. a cheaper one); the agent's own model by default. */
  model?: string;
}

export const DEFAULT_KEEP_RECENT_MESSAGES = 8;

/** What the model is sent instead of the messages before `from`: the system message, the summary, then the rest. */
export interface ConversationWindow {
  from: number;
  summary: string;
}

/** How the summary reaches the model, as the first user message after the system message. */
export function summaryMessageText(summary: string): string {
  return `Summary of the earlier conversation (its messages are not repeated here):\n${summary}`;
}

/** The messages the model is sent: all of them, or the system message, the summary and the messages from `window.from`. */
export function windowedMessages(messages: Message[], window: ConversationWindow | undefined): Message[] {
  if (!window) return messages;
  return [messages[0]!, { role: 'user', content: summaryMessageText(window.summary) }, ...messages.slice(window.from)];
}

/** Problems with the settings, for defineAgent's error. */
export function memoryProblems(memory: MemorySettings): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(memory.maxTokens) || memory.maxTokens < 1) problems.push('memory.maxTokens must be a positive integer');
  const keep = memory.keepRecentMessages;
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) problems.push('memory.keepRecentMessages must be a positive integer');
  if (memory.strategy !== undefined && memory.strategy !== 'summarize') problems.push(`memory.strategy '${String(memory.strategy)}' is not known: use 'summarize'`);
  return problems;
}
