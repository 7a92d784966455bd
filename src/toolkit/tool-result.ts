import type { ContentBlock, ToolResultState } from '../common/messages';
import type { RichToolResult, ToolReturn } from './define-tool';

export interface ToolResult {
  /** What the model sees. */
  content: string;
  state: ToolResultState;
  blocks?: ContentBlock[];
}

export const TRUNCATION_MARKER = '\n[... output truncated: showing the first {shown} of {total} characters ...]';

export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = TRUNCATION_MARKER.replace('{shown}', String(maxChars)).replace('{total}', String(text.length));
  return text.slice(0, maxChars) + marker;
}

function isRich(value: ToolReturn): value is RichToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as RichToolResult).blocks);
}

function blocksToText(blocks: ContentBlock[]): string {
  const texts = blocks.filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text').map((b) => b.text);
  if (texts.length > 0) return texts.join('\n');
  const others = blocks.map((b) => (b.type === 'json' ? JSON.stringify(b.data) : `[${b.type}]`));
  return others.join('\n');
}

/** string as is, undefined → `Done`, null → `null`, content blocks → their text, anything else → JSON. */
export function toToolResult(value: ToolReturn, maxChars: number): ToolResult {
  if (isRich(value)) {
    return {
      content: truncateText(blocksToText(value.blocks), maxChars),
      state: value.isError ? 'error' : 'success',
      blocks: value.blocks,
    };
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
