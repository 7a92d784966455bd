// The benchmark's workflow bundle: the agent workflow next to the floor workflows.
export { agentWorkflow } from '../src/workflows';
export { floorActivitiesWorkflow, floorWorkflow } from './floor-workflow';
