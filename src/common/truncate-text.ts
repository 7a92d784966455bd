export const TRUNCATION_MARKER = '\n[... output truncated: showing the first {shown} of {total} characters ...]';

const MARKER_START = '\n[... output truncated: showing the first ';
const MARKER_PATTERN = /^\n\[\.\.\. output truncated: showing the first (\d+) of (\d+) characters \.\.\.\]$/;

/** The cut an earlier truncateText left on this text: how much of it is shown, of how many characters. */
export function earlierCut(text: string): { shown: number; total: number } | undefined {
  if (!text.endsWith(' characters ...]')) return undefined;
  const at = text.lastIndexOf(MARKER_START);
  const match = at < 0 ? null : MARKER_PATTERN.exec(text.slice(at));
  if (!match || Number(match[1]) !== at || Number(match[2]) <= at) return undefined;
  return { shown: at, total: Number(match[2]) };
}

/**
 * The text as is when it fits, else its first `maxChars` characters and a visible marker. A text
 * already cut to fit stays as it is, so the result can be bounded again on its way out.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = earlierCut(text);
  if (cut && cut.shown <= maxChars) return text;
  const total = cut?.total ?? text.length;
  const marker = TRUNCATION_MARKER.replace('{shown}', String(maxChars)).replace('{total}', String(total));
  return text.slice(0, maxChars) + marker;
}
