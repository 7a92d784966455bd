import { addUsage, type TokenUsage } from '../../common/messages';
import { callCost, type PriceTable } from '../../common/pricing';
import type { SubAgentUsage } from '../../common/run';
import type { Writing } from '../state';

/**
 * The one place a run's usage and cost grow: a model call's or a compaction's, priced with the
 * table it was made under (its cost, when the table prices that model, is returned for its event).
 */
export function charge(state: Writing<'spend'>, prices: PriceTable | undefined, call: { model: string; usage: TokenUsage }): number | undefined {
  const cost = callCost(prices, call.model, call.usage);
  add(state, call.usage, cost);
  return cost;
}

/** A sub-agent's run ended: what it spent (its own sub-agents included) counts in the parent's. */
export function chargeSubAgent(state: Writing<'spend'>, entry: SubAgentUsage): void {
  state.subAgents.push(entry);
  add(state, entry.usage, entry.cost);
}

function add(state: Writing<'spend'>, usage: TokenUsage, cost: number | undefined): void {
  state.usage = addUsage(state.usage, usage);
  state.cost += cost ?? 0;
}
