import { jsonByteLength } from '../../common/boundary/limits';
import type { Message } from '../../common/messages';

/**
 * Where the newest messages that fit in `maxBytes` of JSON start, going back no further than
 * `floor`. The last message counts even when it alone is larger.
 */
export function tailStart(messages: Message[], maxBytes: number, floor = 0): number {
  let start = messages.length;
  let bytes = 0;
  while (start > floor && start > 0) {
    const size = jsonByteLength(messages[start - 1]);
    if (start < messages.length && bytes + size > maxBytes) break;
    bytes += size;
    start -= 1;
  }
  return start;
}
