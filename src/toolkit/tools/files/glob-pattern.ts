/**
 * A glob as a regular expression over posix paths: `**` any number of folders, `*` and `?`
 * within one name, `[abc]` / `[!abc]` classes, `{a,b}` alternatives. Matching is
 * case-sensitive and names starting with a dot are matched like any other.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`);
}

function translate(glob: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const next = glob[i + 2];
        if (atStart && next === '/') {
          out += '(?:[^/]*/)*';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      out += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth--;
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escapeChar(glob[++i]!);
    } else {
      out += escapeChar(c);
    }
  }
  return out + ')'.repeat(depth);
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** Patterns are relative to the folder searched and never climb out of it. */
export function checkGlobPattern(pattern: string): void {
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw new Error(`The pattern '${pattern}' must be relative and must not contain '..'; set path to search another folder of the workspace.`);
  }
}
