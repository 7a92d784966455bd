export { agentWorkflow } from './agent-workflow';
export { conversationWorkflow } from './conversation-workflow';
export { noticesWorkflow } from './notices-handover';
