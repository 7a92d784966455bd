/**
 * Keeps the start and the end of a long output (where the command line and the error
 * usually are) within a character budget, and says how much it left out.
 */
export class OutputCollector {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly half: number;

  constructor(private readonly maxChars: number) {
    this.half = Math.floor(maxChars / 2);
  }

  push(text: string): void {
    this.total += text.length;
    let rest = text;
    if (this.head.length < this.half) {
      const room = this.half - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length > 0) this.tail = (this.tail + rest).slice(-(this.maxChars - this.half));
  }

  get length(): number {
    return this.total;
  }

  text(): string {
    const shown = this.head.length + this.tail.length;
    if (shown >= this.total) return this.head + this.tail;
    const omitted = this.total - shown;
    return (
      `${this.head}\n[... output truncated: ${omitted} of ${this.total} characters omitted, ` +
      `showing the first ${this.head.length} and the last ${this.tail.length} ...]\n${this.tail}`
    );
  }
}
