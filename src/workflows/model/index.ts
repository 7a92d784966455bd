/**
 * One model step: the call with its fallbacks and schedule, the typed answer, call ids made
 * unique, and compaction of a conversation that grew past its budget.
 */
export { compact, isContextTooLong, overBudget } from './compaction';
export { callModelWithFallback } from './model-step';
export { answerSetAside, answerTools, finalAnswerCall, finalAnswerNotAlone, typedAnswer } from './typed-answer';
export { usedCallIds, withUniqueCallIds } from './unique-call-ids';
