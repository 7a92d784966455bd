/** What the workflow asks the worker when a run starts: the agent's recorded description. */
export interface DescribeAgentInput {
  agent: string;
}
