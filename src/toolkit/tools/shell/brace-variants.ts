const MAX_VARIANTS = 64;
const LIST = /\{([^{}]*,[^{}]*)\}/;

/**
 * The words a bash brace list (`{a,b}`) would produce, innermost lists first; sequences
 * (`{1..5}`) stay as written. Stops at a few dozen variants: enough to check a path.
 */
export function braceVariants(text: string): string[] {
  const done: string[] = [];
  const pending = [text];
  while (pending.length > 0 && done.length + pending.length <= MAX_VARIANTS) {
    const current = pending.shift()!;
    const match = LIST.exec(current);
    if (!match) {
      done.push(current);
      continue;
    }
    const before = current.slice(0, match.index);
    const after = current.slice(match.index + match[0].length);
    for (const option of match[1]!.split(',')) pending.push(before + option + after);
  }
  return [...new Set([...done, ...pending])];
}
