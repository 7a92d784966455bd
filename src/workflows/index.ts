export { agentWorkflow, conversationWorkflow, noticesWorkflow, scheduledTurnWorkflow } from './run';
export { modelQuotaWorkflow } from './quota/model-quota-workflow';
