import { LRUCache } from 'lru-cache';
import { REFERENCED_RESULT_MIN_CHARS } from '../common/contracts/tool-result-references';

/** What a worker keeps of the tool results it produced recently (about 16 MiB of text by default). */
export const DEFAULT_TOOL_RESULT_CACHE_CHARS = 16 * 1024 * 1024;

/**
 * The larger tool results this worker's tool activities returned, by run and call, for the model
 * call after them: that call names them instead of carrying them (see tool-result-references.ts).
 * Kept after use, so a retried model call on this worker finds them again; the least recently used
 * go first when the budget is full, and a result not found is read through the run's query.
 */
export class ToolResultCache {
  private readonly entries: LRUCache<string, string>;

  constructor(maxChars = DEFAULT_TOOL_RESULT_CACHE_CHARS) {
    this.entries = new LRUCache<string, string>({ maxSize: maxChars, sizeCalculation: (text) => Math.max(1, text.length) });
  }

  remember(workflowId: string, toolCallId: string, content: string): void {
    if (content.length >= REFERENCED_RESULT_MIN_CHARS) this.entries.set(`${workflowId}/${toolCallId}`, content);
  }

  recall(workflowId: string, toolCallId: string): string | undefined {
    return this.entries.get(`${workflowId}/${toolCallId}`);
  }
}
