import type { AgentDescriptor } from '../common/agent';
import type { DescribeAgentInput, DescribeAgentOutput } from '../common/contracts/describe-agent';
import { RUNTIME_FEATURES } from '../common/runtime-features';
import type { ServedAgents } from './served-agent';

/**
 * The agent as this worker knows it. A worker that does not serve it (another agents module on the
 * same task queue) reports so from the local activity (`onMissing: 'report'`), and the workflow asks
 * the task queue instead, where such a worker leaves the step to one that does.
 * `notifies`: the worker has webhooks, so its runs notify them (a runtime feature of the description).
 */
export function describeAgentActivity(agents: ServedAgents, notifies = false) {
  return async function describeAgent(input: DescribeAgentInput): Promise<DescribeAgentOutput> {
    if (input.onMissing === 'report' && !agents.serves(input.agent)) return { notServed: agents.refusal(input.agent) };
    const descriptor: AgentDescriptor = agents.require(input.agent).descriptor;
    if (!notifies) return descriptor;
    return { ...descriptor, runtimeFeatures: [...(descriptor.runtimeFeatures ?? []), RUNTIME_FEATURES.notifyWaits] };
  };
}
