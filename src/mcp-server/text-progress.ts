/** Where a model's text stands in progress messages: under the event lines, marked as the model's, as `watch` prints it. */
export const TEXT_MARGIN = '         │ ';
/** A line of the model's text longer than this goes in pieces, cut at a space where it has one. */
const MAX_LINE = 160;

/**
 * The text of a run's model calls (from its stream's `text_delta` items) as lines for progress
 * messages: a line is sent once it is complete, or once it is long enough; what is left is sent
 * when the call ends (or starts over). Blank lines are not sent.
 */
export class TextProgress {
  private readonly open = new Map<string, string>();

  /** The lines this piece of the call `key` completes. */
  add(key: string, text: string): string[] {
    const lines = ((this.open.get(key) ?? '') + text).split('\n');
    let rest = lines.pop()!;
    while (rest.length > MAX_LINE) {
      const space = rest.lastIndexOf(' ', MAX_LINE);
      const cut = space > 0 ? space : MAX_LINE;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(space > 0 ? cut + 1 : cut);
    }
    this.open.set(key, rest);
    return lines.filter((line) => line.trim() !== '');
  }

  /** What is left of the call's text: a line without its end, or nothing. */
  end(key: string): string[] {
    const rest = this.open.get(key);
    this.open.delete(key);
    return rest && rest.trim() !== '' ? [rest] : [];
  }
}
