import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { AgentRegistry, RegisteredAgent } from '../toolkit/agent-registry';
import type { AgentDescriptor } from '../common/agent';
import type { DescribeAgentInput } from '../common/contracts/describe-agent';
import { RUNTIME_FEATURES } from '../common/runtime-features';

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

/** `notifies`: the worker has webhooks, so its runs notify them (a runtime feature of the description). */
export function describeAgentActivity(registry: AgentRegistry, notifies = false) {
  return async function describeAgent(input: DescribeAgentInput): Promise<AgentDescriptor> {
    const descriptor = requireAgent(registry, input.agent).descriptor;
    if (!notifies) return descriptor;
    return { ...descriptor, runtimeFeatures: [...(descriptor.runtimeFeatures ?? []), RUNTIME_FEATURES.notifyWaits] };
  };
}
