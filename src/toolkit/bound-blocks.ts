import type { ContentBlock } from '../common/messages';
import { earlierCut, truncateText } from '../common/truncate-text';

/** Blocks kept of one result at most: each costs the run's history some bytes, however small. */
export const MAX_RESULT_BLOCKS = 1_000;

const MARKER_PATTERN = /^\[(?:[\w-]{1,20} block omitted|[\d,]+ more blocks? omitted): [^\]]*\]$/;
const MAX_MARKER_LENGTH = 200;

/**
 * The blocks of a rich result, bounded so that the result always fits an activity's payload.
 * Text blocks share `maxChars`: the first that does not fit is cut with the usual marker. A json,
 * image or resource block larger than what is left becomes a marker naming its type and size;
 * once nothing is left, all further blocks become one marker. Markers cost nothing, so bounding
 * bounded blocks changes nothing.
 */
export function boundBlocks(blocks: readonly ContentBlock[], maxChars: number): ContentBlock[] {
  const kept: ContentBlock[] = [];
  let left = maxChars;
  for (let position = 0; position < blocks.length; position++) {
    const block = blocks[position];
    const overCount = kept.length >= MAX_RESULT_BLOCKS - 1 && blocks.length - position > 1;
    if (!overCount && isMarker(block)) {
      kept.push(block);
      continue;
    }
    if (overCount || left <= 0) {
      const limit = overCount ? `${formatCount(MAX_RESULT_BLOCKS)}-block` : `${formatCount(maxChars)}-character`;
      kept.push(markerBlock(restMarker(blocks.slice(position), limit)));
      break;
    }
    if (isTextBlock(block)) {
      const size = earlierCut(block.text)?.shown ?? block.text.length;
      kept.push(size <= left ? block : { type: 'text', text: truncateText(block.text, left) });
      left = Math.max(0, left - size);
      continue;
    }
    const size = serializedSize(block);
    if (size <= left) {
      kept.push(block);
      left -= size;
    } else {
      kept.push(markerBlock(omittedMarker(block, size, maxChars)));
    }
  }
  return kept;
}

function isTextBlock(block: unknown): block is Extract<ContentBlock, { type: 'text' }> {
  return typeof block === 'object' && block !== null && (block as ContentBlock).type === 'text' && typeof (block as { text?: unknown }).text === 'string';
}

function isMarker(block: unknown): boolean {
  return isTextBlock(block) && block.text.length <= MAX_MARKER_LENGTH && MARKER_PATTERN.test(block.text);
}

function markerBlock(text: string): ContentBlock {
  return { type: 'text', text };
}

/** Characters of the block as JSON; Infinity when it cannot be serialized at all. */
function serializedSize(block: unknown): number {
  try {
    return JSON.stringify(block)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function omittedMarker(block: unknown, size: number, maxChars: number): string {
  const raw = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
  const type = typeof raw === 'string' && /^[\w-]{1,20}$/.test(raw) ? raw : 'unknown';
  if (!Number.isFinite(size)) return `[${type} block omitted: not serializable as JSON]`;
  return `[${type} block omitted: ${formatCount(size)} characters, over the ${formatCount(maxChars)}-character limit]`;
}

function restMarker(rest: readonly unknown[], limit: string): string {
  const size = rest.reduce<number>((sum, block) => {
    const blockSize = isTextBlock(block) ? block.text.length : serializedSize(block);
    return Number.isFinite(blockSize) ? sum + blockSize : sum;
  }, 0);
  const count = rest.length === 1 ? '1 more block' : `${formatCount(rest.length)} more blocks`;
  return `[${count} omitted: ${formatCount(size)} characters, over the ${limit} limit]`;
}

function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
