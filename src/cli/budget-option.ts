import { budgetProblem, type Budget } from '../common/budget';
import { UsageError } from './command';

/** `--budget JSON`: a budget, or a usage error naming what is wrong with it. */
export function budgetOption(value: string | undefined): Budget | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(`--budget is not valid JSON: ${(error as Error).message}`);
  }
  const problem = budgetProblem('--budget', parsed);
  if (problem) throw new UsageError(problem);
  return parsed as Budget;
}
