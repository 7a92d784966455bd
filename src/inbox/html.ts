/** Markup that is already safe: built by `html` (every value escaped) or by `raw` on a constant. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (char) => ENTITIES[char]!);
}

function piece(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

/** A template whose every interpolation is escaped, unless it is SafeHtml (or an array of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += piece(value) + strings[index + 1]!;
  });
  return new SafeHtml(out);
}

/** Only for markup written in this code, never for anything that came from outside. */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}
