/**
 * Just enough shell reading for rule matching. This is not a shell parser: granting rules
 * refuse anything with control syntax, and restrictive rules look at a generous split of
 * the line, so that reading it wrongly only ever makes a rule less permissive.
 */

/** Chains, pipes, background jobs, redirections, substitutions, line breaks. */
const CONTROL_SYNTAX = /[;&|<>`\n\r]|\$\(/;
const SPLIT_SYNTAX = /\$\(|[;&|<>`\n\r(){}]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const LEADING_WORDS = new Set([
  'sudo', 'env', 'command', 'builtin', 'exec', 'nohup', 'time', 'nice', 'xargs',
  '!', 'if', 'then', 'else', 'elif', 'while', 'until', 'do',
]);

export function hasControlSyntax(command: string): boolean {
  return CONTROL_SYNTAX.test(command);
}

export function commandWords(command: string): string[] {
  return command.split(/\s+/).filter((word) => word !== '');
}

/**
 * Word lists a restrictive rule should be tested against: the whole line, then every piece
 * between control operators, each also without quotes, without leading wrappers such as
 * `sudo` or `VAR=1`, and with the program's folder removed (`/bin/rm` → `rm`).
 */
export function restrictiveCandidates(command: string): string[][] {
  const candidates: string[][] = [];
  const seen = new Set<string>();
  const add = (words: string[]): void => {
    const key = words.join(' ');
    if (words.length === 0 || seen.has(key)) return;
    seen.add(key);
    candidates.push(words);
  };
  add(commandWords(command));
  for (const piece of command.split(SPLIT_SYNTAX)) {
    const words = commandWords(piece);
    add(words);
    const unquoted = words.map((word) => word.replace(/['"\\]/g, '')).filter((word) => word !== '');
    add(unquoted);
    let start = 0;
    while (start < unquoted.length && (ASSIGNMENT.test(unquoted[start]) || LEADING_WORDS.has(unquoted[start]))) start++;
    const program = unquoted.slice(start);
    add(program);
    if (program.length > 0 && program[0].includes('/')) {
      add([program[0].slice(program[0].lastIndexOf('/') + 1), ...program.slice(1)]);
    }
  }
  return candidates;
}
