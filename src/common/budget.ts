import { z } from 'zod';
import type { Duration } from '@temporalio/common';
import { durationProblem } from './duration';

/** An amount of spending: tokens (prompt and completion together) and/or cost (in the price table's currency). */
export interface Spend {
  tokens?: number;
  cost?: number;
}

/**
 * What a run may spend on model calls, its sub-agents' included. Set on an agent
 * (`defineAgent({ budget })`), on a run (`start({ budget })`, a conversation's options) or for the
 * runs of a user (the worker's `userBudgets`); where several apply, each limit is the smallest given.
 */
export interface Budget extends Spend {
  /**
   * `ask` (the default): when the next model call would pass the budget, the run waits for a person
   * to allow `more` (an approval of the call `budget`); `stop`: the run ends at once as `budget_exhausted`.
   */
  onReached?: 'ask' | 'stop';
  /** What a person is asked to allow each time; half of each limit by default. The person may change it. */
  more?: Spend;
  /** How long the run waits for that answer before it ends as `budget_exhausted`; no limit by default. */
  timeout?: Duration;
}

/** The tool name of the call a run waits on when its budget is reached (no tool may have it: `$` is not allowed in tool names). */
export const BUDGET_TOOL = '$budget';

/** The JSON Schema of a budget call's input (the amounts to allow), for forms that edit it. */
export const ALLOWANCE_JSON_SCHEMA = {
  type: 'object',
  properties: {
    tokens: { type: 'integer', exclusiveMinimum: 0, description: 'Tokens to allow on top of the budget' },
    cost: { type: 'number', exclusiveMinimum: 0, description: 'Cost to allow on top of the budget' },
  },
  additionalProperties: false,
} as const;

/** The budget as a run keeps it: its limits now (raised by each allowance) and how it asks. */
export interface RunBudget {
  limit: Spend;
  onReached: 'ask' | 'stop';
  more: Spend;
  timeout?: Duration;
  /** What people allowed on top of the limits set at the start (a sub-agent's allowance reaches its parent). */
  raised: Spend;
  /** How many times the run asked for more so far (its budget calls are `budget-<n>`). */
  asks?: number;
}

const amount = (what: string, atLeastZero: boolean) => {
  const number = z.number({ invalid_type_error: `${what} must be a number` }).finite();
  return atLeastZero ? number.nonnegative(`${what} must not be below 0`) : number.positive(`${what} must be more than 0`);
};
/** A limit may be 0 (a sub-agent started with its parent's budget spent asks at once); an amount to allow is more than 0. */
const spendSchema = (what: string, atLeastZero = false) =>
  z
    .object({ tokens: amount(`${what}tokens`, atLeastZero).int(`${what}tokens must be a whole number`).optional(), cost: amount(`${what}cost`, atLeastZero).optional() })
    .strict();

/** Built on use (see boundary/payload-schemas.ts: workflow modules load once per cached run). */
export function budgetSchema() {
  return spendSchema('budget.', true)
    .extend({
      onReached: z.enum(['ask', 'stop']).optional(),
      more: spendSchema('budget.more.').optional(),
      timeout: z.union([z.string(), z.number()]).optional(),
    })
    .strict()
    .superRefine((budget, ctx) => {
      if (budget.tokens === undefined && budget.cost === undefined) ctx.addIssue({ code: 'custom', message: 'a budget needs tokens, cost or both' });
      const timeout = durationProblem('budget.timeout', budget.timeout);
      if (timeout) ctx.addIssue({ code: 'custom', message: timeout });
    });
}

/** What a person allows when answering the budget's call: the amounts, edited or as proposed. */
export function allowanceSchema() {
  return spendSchema('').refine((more) => more.tokens !== undefined || more.cost !== undefined, 'allow tokens, cost or both');
}

/** Why `value` is not a budget, or undefined when it is one (for settings checked where they are given). */
export function budgetProblem(what: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const parsed = budgetSchema().safeParse(value);
  return parsed.success ? undefined : `${what}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`;
}

/** The budget, or a TypeError naming what is wrong with it. */
export function checkedBudget(what: string, value: unknown): Budget | undefined {
  const problem = budgetProblem(what, value);
  if (problem) throw new TypeError(`${problem}.`);
  return value as Budget | undefined;
}

function smaller(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/**
 * The budget of a run from all that apply, most specific first (the run's, the user's, the
 * agent's): each limit is the smallest given; how it asks comes from the first that says.
 */
export function combineBudgets(budgets: readonly (Budget | undefined)[]): Budget | undefined {
  const given = budgets.filter((budget): budget is Budget => budget !== undefined);
  if (given.length === 0) return undefined;
  const pick = <K extends 'onReached' | 'more' | 'timeout'>(key: K) => given.find((budget) => budget[key] !== undefined)?.[key];
  const tokens = given.reduce<number | undefined>((min, budget) => smaller(min, budget.tokens), undefined);
  const cost = given.reduce<number | undefined>((min, budget) => smaller(min, budget.cost), undefined);
  const onReached = pick('onReached');
  const more = pick('more');
  const timeout = pick('timeout');
  return {
    ...(tokens !== undefined ? { tokens } : {}),
    ...(cost !== undefined ? { cost } : {}),
    ...(onReached ? { onReached } : {}),
    ...(more ? { more } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  };
}

/** A budget as a run starts keeping it. */
export function runBudgetOf(budget: Budget): RunBudget {
  const half = (value: number | undefined, whole: boolean) => (value === undefined ? undefined : whole ? Math.max(1, Math.ceil(value / 2)) : value / 2);
  const more = budget.more ?? onlyDefined({ tokens: half(budget.tokens, true), cost: half(budget.cost, false) });
  return {
    limit: onlyDefined({ tokens: budget.tokens, cost: budget.cost }),
    onReached: budget.onReached ?? 'ask',
    more,
    ...(budget.timeout !== undefined ? { timeout: budget.timeout } : {}),
    raised: {},
  };
}

export function onlyDefined(spend: Spend): Spend {
  return { ...(spend.tokens !== undefined ? { tokens: spend.tokens } : {}), ...(spend.cost !== undefined ? { cost: spend.cost } : {}) };
}

export function addSpend(a: Spend, b: Spend): Spend {
  const sum = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return onlyDefined({ tokens: sum(a.tokens, b.tokens), cost: sum(a.cost, b.cost) });
}

/** An amount as people read it: `$2.00`-style cost (four places below a cent), tokens with separators. */
export function spendText(spend: Spend): string {
  const parts: string[] = [];
  if (spend.cost !== undefined) parts.push(spend.cost >= 0.01 || spend.cost === 0 ? `$${spend.cost.toFixed(2)}` : `$${spend.cost.toFixed(4)}`);
  if (spend.tokens !== undefined) parts.push(`${Math.round(spend.tokens).toLocaleString('en-US')} ${Math.round(spend.tokens) === 1 ? 'token' : 'tokens'}`);
  return parts.join(' and ');
}

/** Whether a waiting call asks for more budget. Runs of 0.7.0 and before mark it by its tool's name only. */
export function asksForBudget(call: { budget?: true; tool: string }): boolean {
  return call.budget === true || call.tool === BUDGET_TOOL;
}
