// The benchmark's workflow bundle: the agent workflow next to the floor workflows.
export { agentWorkflow, conversationWorkflow, modelQuotaWorkflow } from '../src/workflows';
export { floorActivitiesWorkflow, floorWorkflow, handWrittenLoopWorkflow, waitingFloorWorkflow } from './floor-workflow';
