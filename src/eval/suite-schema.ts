import { z, type ZodTypeAny } from 'zod';
import { BUDGET_TOOL } from '../common/budget';
import { matcherProblems, regexOf, type ArgsMatcher } from './arg-matchers';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isZodSchema = (value: unknown): value is ZodTypeAny => typeof (value as ZodTypeAny | undefined)?.safeParse === 'function';

/** Argument matchers by argument name (see arg-matchers.ts); their regular expressions must compile. */
const argsSchema = z.record(z.string(), z.unknown()).superRefine((matcher, ctx) => {
  for (const problem of matcherProblems(matcher, 'args')) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
}) as z.ZodType<ArgsMatcher>;

export const ANSWER_ACTIONS = ['approve', 'deny', 'edit', 'submit', 'allow_budget'] as const;

/**
 * How a call the run waits on is answered: the first answer with uses left (`times`, once by
 * default) whose tool and `when` fit the call. `approve` (with `input`: edited arguments), `edit` (the same, `input` required), `deny`
 * (with `reason`), `submit` (an external tool's `output`, `isError`), `allow_budget` (the `$budget`
 * call of a reached budget; `input` is the amount, e.g. `{ "cost": 1 }`, else the budget's `more`).
 */
export const evalAnswerSchema = z
  .object({
    tool: z.string().min(1).optional(),
    when: argsSchema.optional(),
    action: z.enum(ANSWER_ACTIONS),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    isError: z.boolean().optional(),
    reason: z.string().optional(),
    /** How many waiting calls this answer answers: 1 (the default), a number, or `'every'` call that fits (a person who denies each time it is asked). */
    times: z.union([z.number().int().positive(), z.literal('every')]).optional(),
  })
  .strict()
  .superRefine((answer, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
    if (answer.action === 'allow_budget' && answer.tool !== undefined && answer.tool !== BUDGET_TOOL) problem(`allow_budget answers the '${BUDGET_TOOL}' call; leave out tool or make it '${BUDGET_TOOL}'`);
    if (answer.action !== 'allow_budget' && answer.tool === undefined) problem(`tool is required: the tool whose waiting call this answers`);
    if (answer.action === 'edit' && answer.input === undefined) problem('edit needs input: the arguments the call runs with');
    if (answer.action === 'submit' && answer.output === undefined) problem("submit needs output: the external tool's result");
    if (answer.action !== 'submit' && (answer.output !== undefined || answer.isError !== undefined)) problem('output and isError belong to submit');
  });

/** A stub of a tool with effects: its result, or a function of the call's input that gives it. */
export type ToolStub = unknown;

/** One call a captured run made and the full result it got. */
export const recordedCallSchema = z
  .object({
    tool: z.string().min(1),
    input: z.unknown(),
    result: z
      .object({
        content: z.string(),
        isError: z.boolean().optional(),
        blocks: z.array(z.record(z.string(), z.unknown())).optional(),
      })
      .strict(),
  })
  .strict();

const answerSchemaSchema = z.custom<ZodTypeAny | Record<string, unknown>>(
  (value) => isZodSchema(value) || isPlainObject(value),
  'schema must be a zod schema (TypeScript suites) or a JSON Schema object',
);

/** `answer.matches`: a pattern, or `/pattern/flags` as argument matchers write one. */
export function answerRegex(text: string): RegExp {
  return regexOf(text) ?? new RegExp(text);
}

const limitSchema = (what: string) => z.object({ max: z.number({ invalid_type_error: `${what}.max must be a number` }).nonnegative() }).strict();

export const FINAL_STATUSES = ['completed', 'failed', 'max_iterations', 'budget_exhausted', 'cancelled'] as const;

export const evalExpectSchema = z
  .object({
    called: z.array(z.object({ tool: z.string().min(1), args: argsSchema.optional() }).strict()).optional(),
    notCalled: z.array(z.string().min(1)).optional(),
    order: z.array(z.string().min(1)).min(1).optional(),
    iterations: limitSchema('iterations').optional(),
    answer: z
      .object({
        includes: z.union([z.string(), z.array(z.string())]).optional(),
        matches: z
          .string()
          .refine((text) => {
            try {
              answerRegex(text);
              return true;
            } catch {
              return false;
            }
          }, 'matches must be a regular expression (`pattern` or `/pattern/flags`)')
          .optional(),
        equals: z.unknown().optional(),
        schema: answerSchemaSchema.optional(),
      })
      .strict()
      .optional(),
    tokens: limitSchema('tokens').optional(),
    cost: limitSchema('cost').optional(),
    status: z.enum(FINAL_STATUSES).optional(),
    judge: z.object({ rubric: z.string().min(1) }).strict().optional(),
  })
  .strict();

export const evalCaseSchema = z
  .object({
    name: z.string().min(1),
    agent: z.string().min(1),
    /** The user's messages: one starts a run; more make a conversation, one turn each. */
    turns: z.array(z.string().min(1)).min(1),
    answers: z.array(evalAnswerSchema).optional(),
    /** Results of the tools with effects, by tool name: a value, or (in TypeScript suites) a function of the input. */
    tools: z.record(z.string(), z.unknown()).optional(),
    /** A captured run's calls: with it every tool answers from here, and a call it does not hold is new behaviour. */
    recording: z.array(recordedCallSchema).optional(),
    expect: evalExpectSchema.optional(),
  })
  .strict()
  .superRefine((evalCase, ctx) => {
    if (evalCase.tools && evalCase.recording) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'give tools or recording, not both: with a recording every tool answers from it' });
  });

export const evalSuiteSchema = z
  .object({
    /** The agents module (JavaScript or TypeScript), relative to the suite's file; `--module` gives it otherwise. */
    agents: z.string().min(1).optional(),
    cases: z.array(evalCaseSchema).min(1, 'a suite needs at least one case'),
  })
  .strict()
  .superRefine((suite, ctx) => {
    const seen = new Set<string>();
    suite.cases.forEach((evalCase, index) => {
      if (seen.has(evalCase.name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['cases', index, 'name'], message: `two cases are named '${evalCase.name}'; names identify cases in reports and baselines` });
      seen.add(evalCase.name);
    });
  });

export type EvalAnswer = z.infer<typeof evalAnswerSchema>;
export type RecordedCall = z.infer<typeof recordedCallSchema>;
export type EvalExpect = z.infer<typeof evalExpectSchema>;
export type EvalCase = z.infer<typeof evalCaseSchema>;
export type EvalSuite = z.infer<typeof evalSuiteSchema>;
export type FinalStatusName = (typeof FINAL_STATUSES)[number];
