import type { TokenUsage } from './messages';

/** Price of one model per million tokens, in whatever currency the table is kept in. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Prices by model name, as sent to the endpoint (fallback models included). */
export type PriceTable = Record<string, ModelPrice>;

/** Cost of one call; undefined when the table has no price for the model. */
export function callCost(prices: PriceTable | undefined, model: string, usage: TokenUsage): number | undefined {
  const price = prices && Object.prototype.hasOwnProperty.call(prices, model) ? prices[model] : undefined;
  if (!price) return undefined;
  return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1_000_000;
}
