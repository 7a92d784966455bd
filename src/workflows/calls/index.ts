/**
 * The owner of the run's tool-call records: the only code that changes one. Its transitions are
 * checked against one table (phases.ts), each returns the change it made (change.ts), and one
 * function acts on a change in a fixed order (apply-change.ts); the views are in views.ts. The
 * rest of the workflow code uses what this file exports and reads records only.
 */
export { beginBatch, migrateCarriedAnswers, recordOf, MAX_EARLY_ANSWERS } from './book';
export type { SubAgentEnd } from './sub-agent-calls';
export { askForResult, beginChecks, beginRun, enterSubAgent, exitSubAgent, finishBatch, noteSubAgentWaiting, settleCall, takeCheck } from './lifecycle';
export { awaitApprovals, awaitBudgetAnswer, awaitExternalResult } from './waits';
export type { BudgetAnswer } from './budget-call';
export { answerProblem, isUnseen, recordDecision, recordSubmission, refusedSignalAnswer } from './answers';
export { answerRulesProblem } from './answer-rules';
export { delegateCall, delegationProblem } from './delegation';
export { allPending, carriedRecords, ownPending, subAgentHolding, visibleRecords } from './views';
export type { AskCall, GateOutcome } from './approval';
export { earlierRun, reusableRun, reusedResult } from './repeated-calls';
