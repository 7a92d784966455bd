import type { ZodTypeAny } from 'zod';
import { canonicalJson, shortJson } from './canonical-json';
import type { ExpectationResult } from './eval-report';
import { answerRegex, type EvalExpect } from './suite-schema';

type AnswerExpect = NonNullable<EvalExpect['answer']>;

const isZodSchema = (value: unknown): value is ZodTypeAny => typeof (value as ZodTypeAny | undefined)?.safeParse === 'function';

function result(expectation: string, passed: boolean, expected: string, actual: string): ExpectationResult {
  return { expectation, passed, expected, actual };
}

/** The typed answer when the run has one, else the answer's text read as JSON; undefined when it is neither. */
function answerValue(output: string, data: unknown): { value: unknown } | undefined {
  if (data !== undefined) return { value: data };
  try {
    return { value: JSON.parse(output) };
  } catch {
    return undefined;
  }
}

function schemaProblems(schema: ZodTypeAny | Record<string, unknown>, value: unknown): string[] {
  if (isZodSchema(schema)) {
    const parsed = schema.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `/${issue.path.join('/')}` : '(the answer)'}: ${issue.message}`);
  }
  const Ajv = require('ajv') as typeof import('ajv').default;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return [`the JSON Schema does not compile: ${(error as Error).message}`];
  }
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(the answer)'}: ${error.message ?? 'invalid'}`);
}

/** The answer's expectations: its text includes, matches or equals something, its data fits a schema. */
export function scoreAnswer(expect: AnswerExpect, output: string, data: unknown): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  const shown = shortJson(output, 200);
  const includes = expect.includes === undefined ? [] : Array.isArray(expect.includes) ? expect.includes : [expect.includes];
  for (const text of includes) results.push(result('answer includes', output.includes(text), `the answer includes ${JSON.stringify(text)}`, `the answer is ${shown}`));
  if (expect.matches !== undefined) {
    const regex = answerRegex(expect.matches);
    results.push(result('answer matches', regex.test(output), `the answer matches ${String(regex)}`, `the answer is ${shown}`));
  }
  if (expect.equals !== undefined) {
    const value = typeof expect.equals === 'string' ? { value: output.trim() } : answerValue(output, data);
    const equal = value !== undefined && (typeof expect.equals === 'string' ? value.value === expect.equals.trim() : canonicalJson(value.value) === canonicalJson(expect.equals));
    results.push(result('answer equals', equal, `the answer is ${shortJson(expect.equals, 200)}`, `the answer is ${value ? shortJson(value.value, 200) : shown}`));
  }
  if (expect.schema !== undefined) {
    const value = answerValue(output, data);
    const problems = value ? schemaProblems(expect.schema, value.value) : ['the answer is not JSON'];
    results.push(result('answer schema', problems.length === 0, 'the answer fits the schema', problems.length === 0 ? 'it does' : `${problems.slice(0, 3).join('; ')} (answer ${shown})`));
  }
  return results;
}
