import { ApplicationFailure } from '@temporalio/workflow';
import { addSpend, checkedBudget, combineBudgets, onlyDefined, runBudgetOf, spendText, type Budget, type RunBudget, type Spend } from '../../common/budget';
import type { AgentDescriptor } from '../../common/agent';
import type { AgentWorkflowInput, BudgetReport } from '../../common/run';
import { awaitBudgetAnswer } from '../calls';
import { estimatedTokens } from '../context';
import type { Writing } from '../state';
import { apply } from '../effects';

/**
 * The run's budget, kept before each model call: the spending so far (the provider's reported
 * usage and the priced cost, sub-agents' included) plus an estimate of the next call must stay
 * within the limit; otherwise the run asks a person for more (a `$budget` call, see
 * calls/budget-call.ts) or, with `onReached: 'stop'`, ends as `budget_exhausted` at once.
 */

/** The budget a run starts with: its start option's (a sub-agent's is its parent's remainder) and its agent's (the worker's user budget folded in). */
export function startingBudget(input: Pick<AgentWorkflowInput, 'options'>, descriptor: AgentDescriptor): { budget?: RunBudget; costIgnored: boolean } {
  const combined = combineBudgets([startOption(input.options?.budget), descriptor.budget]);
  if (!combined) return { costIgnored: false };
  // Without prices nothing is charged, so a cost limit could never be reached: it is named as ignored, not silently kept.
  const costIgnored = combined.cost !== undefined && !descriptor.model.prices;
  const kept: Budget = costIgnored ? { ...combined, cost: undefined } : combined;
  if (kept.tokens === undefined && kept.cost === undefined) return { costIgnored };
  return { budget: runBudgetOf(kept), costIgnored };
}

/** At a run's start: a cost limit its agent cannot price is named in its events (an `input_rejected` of its start), not silently dropped. */
export function noteIgnoredCost(state: Writing<'spend'>, input: Pick<AgentWorkflowInput, 'options' | 'carried'>): void {
  if (input.carried || !startingBudget(input, state.descriptor).costIgnored) return;
  apply(state, { rejected: [{ handler: 'start', reason: `the budget's cost limit is not kept: agent '${state.agent}' has no price table (model.prices), so its calls cost nothing it can count` }] });
}

/** What the run has spent, in the limit's terms. */
export function spentOf(state: Writing<'spend'>, limit: Spend): Spend {
  return onlyDefined({ tokens: limit.tokens !== undefined ? state.usage.totalTokens : undefined, cost: limit.cost !== undefined ? state.cost : undefined });
}

/**
 * The next call's estimate: the conversation it sends (see estimatedTokens) plus as many tokens as
 * the last reply had; its cost at the run's average price per token so far.
 */
function nextCallOf(state: Writing<'spend'>, limit: Spend): Spend {
  const tokens = estimatedTokens(state) + (state.lastCall?.completionTokens ?? 0);
  const perToken = state.usage.totalTokens > 0 ? state.cost / state.usage.totalTokens : 0;
  return onlyDefined({ tokens: limit.tokens !== undefined ? tokens : undefined, cost: limit.cost !== undefined ? tokens * perToken : undefined });
}

/** A start input may come from anywhere (the Temporal CLI, an old client): a budget that is not one ends the run, saying why. */
function startOption(value: unknown): Budget | undefined {
  try {
    return checkedBudget('budget', value);
  } catch (error) {
    throw ApplicationFailure.nonRetryable((error as Error).message, 'Agent.BadInput');
  }
}

function passes(limit: Spend, spent: Spend, next: Spend): boolean {
  const over = (cap: number | undefined, used = 0, coming = 0) => cap !== undefined && used + coming > cap;
  return over(limit.tokens, spent.tokens, next.tokens) || over(limit.cost, spent.cost, next.cost);
}

/** The limit after an answer: each amount allowed raises the limit it names (amounts for limits the budget has not are not kept). */
function raisedBy(limit: Spend, allowed: Spend): Spend {
  return onlyDefined({ tokens: limit.tokens !== undefined ? allowed.tokens : undefined, cost: limit.cost !== undefined ? allowed.cost : undefined });
}

/** An approval raises the budget by the amounts it allowed for the limits the budget has. */
function raiser(budget: RunBudget) {
  return (allowed: Spend): { allowed: Spend; limit: Spend } => {
    const raised = raisedBy(budget.limit, allowed);
    budget.limit = addSpend(budget.limit, raised);
    budget.raised = addSpend(budget.raised, raised);
    return { allowed: raised, limit: budget.limit };
  };
}

/** The budget was reached and not raised: the run ends, and why. */
export interface BudgetEnd {
  reason: string;
}

/**
 * Before a model call: within the budget, nothing happens (and nothing is awaited, so runs without
 * a budget replay their commands unchanged); past it, the run asks for more until a person allows
 * enough, or ends.
 */
export function keepWithinBudget(state: Writing<'spend'>): Promise<BudgetEnd | undefined> | undefined {
  const budget = state.budget;
  if (!budget) return undefined;
  if (!passes(budget.limit, spentOf(state, budget.limit), nextCallOf(state, budget.limit))) return undefined;
  return askUntilWithin(state, budget);
}

async function askUntilWithin(state: Writing<'spend'>, budget: RunBudget): Promise<BudgetEnd | undefined> {
  for (;;) {
    const spent = spentOf(state, budget.limit);
    const next = nextCallOf(state, budget.limit);
    if (!passes(budget.limit, spent, next)) return undefined;
    const reached = `budget of ${spendText(budget.limit)} reached (${spendText(spent)} spent, the next model call ≈ ${spendText(next)})`;
    if (budget.onReached === 'stop') {
      apply(state, { events: [{ type: 'budget_reached', limit: budget.limit, spent, next, onReached: 'stop' }] });
      return { reason: reached };
    }
    budget.asks = (budget.asks ?? 0) + 1;
    const callId = `budget-${budget.asks}`;
    const question = `${reached}: allow ${spendText(budget.more)} more?`;
    apply(state, { step: { text: `waiting: ${question}` } });
    const answer = await awaitBudgetAnswer(
      state,
      { reached: { type: 'budget_reached', limit: budget.limit, spent, next, onReached: 'ask', callId, more: budget.more }, question },
      budget.timeout,
      raiser(budget),
    );
    if (answer.outcome !== 'approved') {
      const why = answer.outcome === 'timed_out' ? `nobody allowed more within ${budget.timeout}` : `more was refused${answer.answeredBy ? ` by ${answer.answeredBy}` : ''}${answer.reason ? `: ${answer.reason}` : ''}`;
      return { reason: `${reached}; ${why}` };
    }
  }
}

/** What a sub-agent started now may spend: what is left of this run's budget, asked for the same way. */
export function budgetForSubAgent(state: Writing<'spend'>): Budget | undefined {
  const budget = state.budget;
  if (!budget) return undefined;
  const spent = spentOf(state, budget.limit);
  const left = (cap: number | undefined, used = 0) => (cap === undefined ? undefined : Math.max(0, cap - used));
  return {
    ...onlyDefined({ tokens: left(budget.limit.tokens, spent.tokens), cost: left(budget.limit.cost, spent.cost) }),
    onReached: budget.onReached,
    more: budget.more,
    ...(budget.timeout !== undefined ? { timeout: budget.timeout } : {}),
  };
}

/** A sub-agent's allowances raise this run's limit too: what a person allowed there is not asked for again here. */
export function takeSubAgentAllowance(state: Writing<'spend'>, raised: Spend | undefined): void {
  if (state.budget && raised) raiser(state.budget)(raised);
}

/** The budget as the run's result and state show it. */
export function budgetReport(state: Writing<'spend'>, budget: RunBudget): BudgetReport {
  return { limit: budget.limit, spent: spentOf(state, budget.limit), raised: budget.raised };
}

/** The answer a run that ran out of budget gives: the newest text the model wrote. */
export function partialAnswer(state: Writing<'spend'>): string {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i]!;
    if (message.role === 'assistant' && message.content) return message.content;
  }
  return '';
}
