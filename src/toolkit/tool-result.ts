import type { ContentBlock, ToolResultState } from '../common/messages';
import { boundBlocks } from './bound-blocks';
import type { RichToolResult, ToolReturn } from './define-tool';
import { truncateText } from '../common/truncate-text';

export { TRUNCATION_MARKER, truncateText } from '../common/truncate-text';

export interface ToolResult {
  /** What the model sees. */
  content: string;
  state: ToolResultState;
  blocks?: ContentBlock[];
}

function isRich(value: ToolReturn): value is RichToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as RichToolResult).blocks);
}

function blocksToText(blocks: ContentBlock[]): string {
  const texts = blocks.filter((b): b is Extract<ContentBlock, { type: 'text' }> => b?.type === 'text').map((b) => b.text);
  if (texts.length > 0) return texts.join('\n');
  const others = blocks.map((b) => (b?.type === 'json' ? jsonText(b.data) : `[${b?.type}]`));
  return others.join('\n');
}

function jsonText(data: unknown): string {
  try {
    return JSON.stringify(data) ?? '';
  } catch {
    return '[json: not serializable]';
  }
}

/**
 * The result cut to `maxChars`: the content the model sees, and the blocks the run keeps (see
 * boundBlocks), so that no result is too large for an activity to return. Bounding a bounded
 * result changes nothing.
 */
export function boundToolResult(result: ToolResult, maxChars: number): ToolResult {
  return {
    content: truncateText(result.content, maxChars),
    state: result.state,
    ...(Array.isArray(result.blocks) ? { blocks: boundBlocks(result.blocks, maxChars) } : {}),
  };
}

/** string as is, undefined → `Done`, null → `null`, content blocks → their text, anything else → JSON. */
export function toToolResult(value: ToolReturn, maxChars: number): ToolResult {
  if (isRich(value)) {
    const state = value.isError ? 'error' : 'success';
    return boundToolResult({ content: blocksToText(value.blocks), state, blocks: value.blocks }, maxChars);
  }
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = 'Done';
  else text = JSON.stringify(value) ?? String(value);
  return { content: truncateText(text, maxChars), state: 'success' };
}

export function errorResult(content: string, maxChars = Number.POSITIVE_INFINITY): ToolResult {
  return { content: truncateText(content, maxChars), state: 'error' };
}
