/**
 * A bash-like lexer for permission checks: it splits a command line into simple commands
 * (segments) and words, removes quotes, and records every construct it will not reason
 * about (substitutions, ANSI-C quoting, chaining newlines, ...) as an issue. It never
 * evaluates anything; any issue makes the command need a person's approval.
 */

export interface ShellWord {
  /** The word after quote removal; expansions stay as written (`$HOME`). */
  text: string;
  /** Characters that were outside quotes and not escaped. */
  unquoted: string;
  quoted: boolean;
  escaped: boolean;
  /** Contains `$name` or `${...}` outside single quotes. */
  expansion: boolean;
}

export interface ShellRedirect {
  /** The operator, with its file descriptor when one was written (`2>`). */
  op: string;
  target?: ShellWord;
}

export interface ShellSegment {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** The operators between the previous segment and this one (`|`, `&&`, `(`, ...); empty for the first. */
  joiners: string[];
}

export interface LexedCommand {
  segments: ShellSegment[];
  issues: string[];
  /** The bodies of here-documents, as written. */
  heredocs: string[];
}

const OPERATORS = [';;&', ';;', ';&', '&&', '||', '|&', '|', ';', '&', '(', ')'];
const REDIRECTS = ['&>>', '&>', '<<<', '<<-', '<<', '>>', '>|', '>&', '<&', '<>', '>', '<'];
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

interface Heredoc {
  delimiter: string;
  literal: boolean;
  stripTabs: boolean;
}

export function lexShell(source: string): LexedCommand {
  const issues = new Set<string>();
  const heredocs: string[] = [];
  if (CONTROL.test(source)) issues.add('control characters');
  const segments: ShellSegment[] = [];
  let segment: ShellSegment = { words: [], redirects: [], joiners: [] };
  let word: ShellWord | undefined;
  let pendingRedirect: string | undefined;
  let pendingHeredocs: Heredoc[] = [];
  let heredocOp = false;
  let i = 0;

  const current = (): ShellWord => (word ??= { text: '', unquoted: '', quoted: false, escaped: false, expansion: false });
  const endWord = (): void => {
    if (!word) return;
    if (pendingRedirect !== undefined) {
      segment.redirects.push({ op: pendingRedirect, target: word });
      if (heredocOp) pendingHeredocs.push({ delimiter: word.text, literal: word.quoted || word.escaped, stripTabs: pendingRedirect.endsWith('<<-') });
      pendingRedirect = undefined;
      heredocOp = false;
    } else {
      segment.words.push(word);
    }
    word = undefined;
  };
  const endSegment = (joiner: string): void => {
    endWord();
    if (pendingRedirect !== undefined) {
      segment.redirects.push({ op: pendingRedirect });
      pendingRedirect = undefined;
    }
    const empty = segment.words.length === 0 && segment.redirects.length === 0;
    if (!empty) segments.push(segment);
    segment = { words: [], redirects: [], joiners: empty ? [...segment.joiners, joiner] : [joiner] };
  };

  /** `$...` at `i`; returns the index after it. `inDouble` disables the quoting forms. */
  const dollar = (at: number, inDouble: boolean): number => {
    const w = current();
    const next = source[at + 1];
    if (next === '(') {
      issues.add('command substitution `$( )`, which runs another command');
      w.text += '$(';
      return at + 2;
    }
    if (next === '[') {
      issues.add('arithmetic expansion `$[ ]`');
      w.text += '$[';
      return at + 2;
    }
    if (!inDouble && next === "'") {
      issues.add("ANSI-C quoting `$'...'`, which can hide characters");
      return singleQuoted(at + 1);
    }
    if (!inDouble && next === '"') {
      issues.add('locale quoting `$"..."`');
      return at + 1;
    }
    if (next === '{') {
      const end = source.indexOf('}', at + 2);
      const body = end === -1 ? source.slice(at + 2) : source.slice(at + 2, end);
      if (end === -1) issues.add('an unterminated `${`');
      if (/IFS/.test(body)) issues.add('`$IFS`, which can hide word boundaries');
      if (body.includes('$(') || body.includes('`')) issues.add('command substitution inside `${ }`');
      w.text += '${' + body + '}';
      w.expansion = true;
      return end === -1 ? source.length : end + 1;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(at + 1));
    if (name) {
      if (name[0] === 'IFS') issues.add('`$IFS`, which can hide word boundaries');
      w.text += '$' + name[0];
      w.expansion = true;
      return at + 1 + name[0].length;
    }
    if (next !== undefined && /[0-9@*#?$!_-]/.test(next)) {
      w.text += '$' + next;
      w.expansion = true;
      return at + 2;
    }
    w.text += '$';
    if (!inDouble) w.unquoted += '$';
    return at + 1;
  };

  const singleQuoted = (at: number): number => {
    const w = current();
    w.quoted = true;
    const end = source.indexOf("'", at + 1);
    if (end === -1) {
      issues.add('an unterminated quote');
      w.text += source.slice(at + 1);
      return source.length;
    }
    w.text += source.slice(at + 1, end);
    return end + 1;
  };

  const doubleQuoted = (at: number): number => {
    const w = current();
    w.quoted = true;
    let j = at + 1;
    while (j < source.length && source[j] !== '"') {
      const c = source[j]!;
      if (c === '\\' && j + 1 < source.length) {
        const n = source[j + 1]!;
        if (n === '\n') {
          j += 2;
          continue;
        }
        w.text += '$`"\\'.includes(n) ? n : c + n;
        w.escaped = true;
        j += 2;
      } else if (c === '$') {
        j = dollar(j, true);
      } else if (c === '`') {
        issues.add('backticks, which run another command');
        w.text += c;
        j++;
      } else {
        w.text += c;
        j++;
      }
    }
    if (j >= source.length) issues.add('an unterminated quote');
    return j + 1;
  };

  const readHeredocBodies = (at: number): number => {
    let j = at;
    for (const doc of pendingHeredocs) {
      let closed = false;
      const body: string[] = [];
      while (j < source.length) {
        const lineEnd = source.indexOf('\n', j);
        const line = source.slice(j, lineEnd === -1 ? source.length : lineEnd);
        j = lineEnd === -1 ? source.length : lineEnd + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) {
          closed = true;
          break;
        }
        body.push(line);
        if (!doc.literal && (line.includes('$(') || line.includes('`'))) issues.add('command substitution inside a here-document');
      }
      if (!closed) issues.add('an unterminated here-document');
      heredocs.push(body.join('\n'));
    }
    pendingHeredocs = [];
    return j;
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (c === '\n' || c === '\r') {
      endSegment('\n');
      i = readHeredocBodies(i + 1);
      const rest = source.slice(i);
      if (rest.trim() !== '') issues.add('a newline that chains another command');
    } else if (CONTROL.test(c)) {
      i++;
    } else if (c === '#' && !word) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (c === '\\') {
      const n = source[i + 1];
      if (n === undefined) {
        current().text += '\\';
        i++;
      } else if (n === '\n') {
        i += 2;
      } else {
        const w = current();
        w.text += n;
        w.escaped = true;
        i += 2;
      }
    } else if (c === "'") {
      i = singleQuoted(i);
    } else if (c === '"') {
      i = doubleQuoted(i);
    } else if (c === '`') {
      issues.add('backticks, which run another command');
      current().text += c;
      i++;
    } else if (c === '$') {
      i = dollar(i, false);
    } else if ((c === '<' || c === '>') && source[i + 1] === '(') {
      issues.add('process substitution `<( )` / `>( )`, which runs another command');
      current().text += c + '(';
      i += 2;
    } else {
      const redirect = (c === '<' || c === '>' || (c === '&' && source[i + 1] === '>')) && REDIRECTS.find((op) => source.startsWith(op, i));
      if (redirect) {
        let fd = '';
        if (word && !word.quoted && !word.escaped && /^\d+$/.test(word.text)) {
          fd = word.text;
          word = undefined;
        }
        endWord();
        if (pendingRedirect !== undefined) segment.redirects.push({ op: pendingRedirect });
        pendingRedirect = fd + redirect;
        heredocOp = redirect === '<<' || redirect === '<<-';
        i += redirect.length;
        continue;
      }
      const operator = OPERATORS.find((op) => source.startsWith(op, i));
      if (operator) {
        if (operator === '(') {
          if (word) issues.add('a function definition or extended glob');
          else if (/^\(\s*\)/.test(source.slice(i))) issues.add('a function definition');
        }
        endSegment(operator);
        i += operator.length;
        continue;
      }
      const w = current();
      w.text += c;
      w.unquoted += c;
      i++;
    }
  }
  endSegment('');
  if (pendingHeredocs.length > 0) issues.add('an unterminated here-document');
  return { segments, issues: [...issues], heredocs };
}
