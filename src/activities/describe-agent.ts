import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { AgentRegistry, RegisteredAgent } from '../toolkit/agent-registry';
import type { AgentDescriptor } from '../common/agent';
import type { DescribeAgentInput } from '../common/contracts/describe-agent';

export function requireAgent(registry: AgentRegistry, name: string): RegisteredAgent {
  const agent = registry.get(name);
  if (!agent) {
    throw ApplicationFailure.nonRetryable(
      `Unknown agent '${name}'. This worker serves: ${registry.names().join(', ') || '(none)'}.`,
      FailureTypes.unknownAgent,
    );
  }
  return agent;
}

export function describeAgentActivity(registry: AgentRegistry) {
  return async function describeAgent(input: DescribeAgentInput): Promise<AgentDescriptor> {
    return requireAgent(registry, input.agent).descriptor;
  };
}
