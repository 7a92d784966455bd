import { LRUCache } from 'lru-cache';
import { jsonChars, type Message } from '../common/messages';

/** What a worker keeps of the conversations it recently called the model for (about 64 MiB of JSON by default). */
export const DEFAULT_CONVERSATION_CACHE_CHARS = 64 * 1024 * 1024;

export interface CachedConversation {
  messages: Message[];
  /** Characters of the messages as JSON: what the cache's budget counts. */
  chars: number;
}


/**
 * Each run's conversation as this worker last sent it to the model, so the next model call needs
 * only the messages added since. Conversations only grow, so a cached prefix stays valid; a run
 * this worker has not seen (another worker, a restart, an eviction) is read through the run's
 * paged query instead. Least recently used conversations go first when the budget is full.
 */
export class ConversationCache {
  private readonly entries: LRUCache<string, CachedConversation>;

  constructor(maxChars = DEFAULT_CONVERSATION_CACHE_CHARS) {
    this.entries = new LRUCache<string, CachedConversation>({ maxSize: maxChars, sizeCalculation: (entry) => Math.max(1, entry.chars) });
  }

  /** The first `count` messages, when this worker has at least that many of the conversation. */
  prefix(key: string, count: number): CachedConversation | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.messages.length < count) return undefined;
    if (entry.messages.length === count) return entry;
    const messages = entry.messages.slice(0, count);
    return { messages, chars: jsonChars(messages) };
  }

  store(key: string, conversation: CachedConversation): void {
    this.entries.set(key, conversation);
  }

  get size(): number {
    return this.entries.size;
  }
}
