import type { ZodError } from 'zod';

/** A zod error as lines of `path: why`, the path written as a reader finds it (`cases[0].answers[1].action`). */
export function issueLines(error: ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
    return `${path || '(top)'}: ${issue.message}`;
  });
}

/** `WHAT is not …:` and one indented line per problem. */
export function describeInvalid(what: string, lines: string[]): string {
  return `${what}:\n${lines.map((line) => `  - ${line}`).join('\n')}`;
}
