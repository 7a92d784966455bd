import type { ToolReturn } from '../toolkit/define-tool';
import { describeInvalid, issueLines } from './schema-issues';
import { evalCaseSchema, evalSuiteSchema, type EvalCase, type EvalSuite } from './suite-schema';

/** A tool with effects in a case: the result it gives, or a function of the call's input that gives it. */
export type EvalToolStub = ToolReturn | ((input: any) => ToolReturn | Promise<ToolReturn>);

/** A case as a TypeScript suite writes it (see docs/evals.md). */
export type EvalCaseInput = Omit<EvalCase, 'tools'> & { tools?: Record<string, EvalToolStub> };

export type EvalSuiteInput = Omit<EvalSuite, 'cases'> & { cases: EvalCaseInput[] };

function checked<T>(schema: { safeParse(value: unknown): { success: true } | { success: false; error: import('zod').ZodError } }, value: T, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TypeError(describeInvalid(what, issueLines(parsed.error)));
  return value;
}

/** One eval case, checked now: a mistake fails where it is written, with its path. */
export function defineEvalCase(evalCase: EvalCaseInput): EvalCaseInput {
  return checked(evalCaseSchema, evalCase, `eval case '${evalCase?.name ?? '?'}' is not valid`);
}

/** An eval suite for `durable-agent eval`: its agents module and its cases, checked now. */
export function defineEvalSuite(suite: EvalSuiteInput): EvalSuiteInput {
  return checked(evalSuiteSchema, suite, 'the eval suite is not valid');
}
