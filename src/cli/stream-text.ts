/** Where a model's text stands in `watch` and `chat`: under the event lines, marked as the model's. */
export const TEXT_MARGIN = '         │ ';

/**
 * The text of streaming model calls as whole lines for a terminal: a delta is kept until its line
 * is complete, and what is left is given when the call ends (or starts over).
 */
export class StreamedLines {
  private readonly open = new Map<string, string>();

  /** The lines this delta completes. */
  add(key: string, text: string): string[] {
    const lines = ((this.open.get(key) ?? '') + text).split('\n');
    this.open.set(key, lines.pop()!);
    return lines;
  }

  /** What is left of the call's text (no line, or one without its end). */
  end(key: string): string[] {
    const rest = this.open.get(key);
    this.open.delete(key);
    return rest ? [rest] : [];
  }
}
