import type { AgentDescriptor } from '../agent';
import type { WorkerRefusal } from '../definitions';

/** What the workflow asks the worker when a run starts: the agent's recorded description. */
export interface DescribeAgentInput {
  agent: string;
  /**
   * A worker that does not serve the agent: `report` it (the local activity's answer, so the run
   * asks the task queue instead) or refuse the step retryably (the default, on the task queue).
   */
  onMissing?: 'report' | 'fail';
  /** The run's user (runtime.userId), whose budget the worker adds (absent in runs started before 0.6.0, or without a user). */
  userId?: string;
}

/** The description, or (from the local activity) the report of a worker that does not serve the agent. */
export type DescribeAgentOutput = AgentDescriptor | { notServed: WorkerRefusal };
