/**
 * One tool step: the batch planned, each call checked and run on a worker or as a sub-agent, and
 * the waits a sub-agent reports up.
 */
export { forwardToSubAgent, reportWaitsToParent } from './sub-agent-waits';
export { actOnToolCalls } from './tool-step';
