// The benchmark's workflow bundle: the agent workflow next to the floor workflow.
export { agentWorkflow } from '../src/workflows';
export { floorWorkflow } from './floor-workflow';
