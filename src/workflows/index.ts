export { agentWorkflow, conversationWorkflow, noticesWorkflow } from './run';
export { modelQuotaWorkflow } from './quota/model-quota-workflow';
