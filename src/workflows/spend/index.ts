/**
 * What a run spends and may spend: its budget, the answers to a spent budget, and the spending
 * shown in the run's details.
 */
export { budgetForSubAgent, budgetReport, keepWithinBudget, noteIgnoredCost, partialAnswer, startingBudget, takeSubAgentAllowance, type BudgetEnd } from './budget';
export { spendingOf, withSpending } from './spending-details';
export { charge, chargeSubAgent } from './charge';
