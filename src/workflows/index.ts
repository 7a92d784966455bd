export { agentWorkflow } from './agent-workflow';
export { conversationWorkflow } from './conversation-workflow';
export { noticesWorkflow } from './notices-handover';
export { modelQuotaWorkflow } from './quota/model-quota-workflow';
