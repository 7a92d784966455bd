/**
 * Whether a sed script only edits the text it reads: substitutions, deletions and printing,
 * with no command or flag that writes another file (`w`, `W`), reads one (`r`, `R`) or runs
 * a command (`e`).
 */
export function isPlainSedScript(script: string): boolean {
  let i = 0;
  const n = script.length;
  const skipSpace = (): void => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  const readDelimited = (delimiter: string): boolean => {
    while (i < n && script[i] !== delimiter) {
      if (script[i] === '\\') i++;
      if (script[i] === '\n') return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const readAddress = (): boolean => {
    if (script[i] === '$') i++;
    else if (/\d/.test(script[i] ?? '')) while (/[\d~]/.test(script[i] ?? '')) i++;
    else if (script[i] === '/') {
      i++;
      if (!readDelimited('/')) return false;
      while (/[IM]/.test(script[i] ?? '')) i++;
    }
    return true;
  };
  while (true) {
    skipSpace();
    if (i >= n) return true;
    if (!readAddress()) return false;
    if (script[i] === ',') {
      i++;
      if (script[i] === '+' || script[i] === '~') i++;
      if (!readAddress()) return false;
    }
    while (script[i] === ' ' || script[i] === '!') i++;
    const command = script[i++];
    if (command === undefined) return false;
    if (command === 's' || command === 'y') {
      const delimiter = script[i++];
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return false;
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) return false;
      if (command === 's') {
        while (i < n && /[gpiImM0-9]/.test(script[i]!)) i++;
      }
      if (i < n && !/[\s;}]/.test(script[i]!)) return false;
    } else if (command === ':' || command === 'b' || command === 't' || command === 'T') {
      while (i < n && !/[;\n]/.test(script[i]!)) i++;
    } else if (command === 'q' || command === 'Q') {
      while (/[\d ]/.test(script[i] ?? '')) i++;
    } else if (!'dDpPnNgGhHxl={}='.includes(command)) {
      return false;
    }
  }
}
