/**
 * The workflows themselves and what only they do: the ReAct loop, the handlers of signals, updates
 * and queries, continue-as-new, forks, and the run's end. The only room that takes the run's state
 * whole.
 */
export { agentWorkflow } from './agent-workflow';
export { conversationWorkflow } from './conversation-workflow';
export { noticesWorkflow } from './notices-handover';
export { scheduledTurnWorkflow } from './scheduled-turn-workflow';
