import type { AgentDescriptor } from '../common/agent';
import type { DescribeAgentInput, DescribeAgentOutput } from '../common/contracts/describe-agent';
import { RUNTIME_FEATURES } from '../common/runtime-features';
import { combineBudgets, type Budget } from '../common/budget';
import { withDefaultApprovals, type ApprovalSettings } from '../common/approvals';
import type { ServedAgents } from './served-agent';

/**
 * The agent as this worker knows it. A worker that does not serve it (another agents module on the
 * same task queue) reports so from the local activity (`onMissing: 'report'`), and the workflow asks
 * the task queue instead, where such a worker leaves the step to one that does.
 * `notifies`: the worker has webhooks, so its runs notify them (a runtime feature of the description).
 */
export function describeAgentActivity(agents: ServedAgents, notifies = false, userBudgets: Record<string, Budget> = {}, defaultApprovals?: ApprovalSettings) {
  return async function describeAgent(input: DescribeAgentInput): Promise<DescribeAgentOutput> {
    if (input.onMissing === 'report' && !agents.serves(input.agent)) return { notServed: agents.refusal(input.agent) };
    const described = withUserBudget(agents.require(input.agent).descriptor, userBudgetOf(userBudgets, input.userId));
    const approvals = withDefaultApprovals(described.approvals, defaultApprovals);
    const descriptor: AgentDescriptor = approvals ? { ...described, approvals } : described;
    if (!notifies) return descriptor;
    return { ...descriptor, runtimeFeatures: [...(descriptor.runtimeFeatures ?? []), RUNTIME_FEATURES.notifyWaits] };
  };
}

function userBudgetOf(budgets: Record<string, Budget>, userId: string | undefined): Budget | undefined {
  if (userId === undefined) return undefined;
  return Object.prototype.hasOwnProperty.call(budgets, userId) ? budgets[userId] : budgets['*'];
}

/** The user's budget joins the agent's in the recorded description, so the run keeps it however it continues. */
function withUserBudget(descriptor: AgentDescriptor, userBudget: Budget | undefined): AgentDescriptor {
  if (!userBudget) return descriptor;
  return { ...descriptor, budget: combineBudgets([userBudget, descriptor.budget])! };
}
