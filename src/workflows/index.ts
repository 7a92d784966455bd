export { agentWorkflow } from './agent-workflow';
