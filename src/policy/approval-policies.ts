import { canonicalJson } from '../common/canonical-json';
import type { ChatModelPort } from '../common/contracts/model-call';
import type { PermissionDecision, PolicyVerdict } from '../common/permissions';
import { loadPolicy } from './load-policy';
import { policyLabel, type AgentApprovalPolicy, type PolicySpec } from './policy-config';
import type { ApprovalPolicy, PolicyAnswer, PolicyRequest } from './policy-request';

/** Where the policies come from: each agent's `approvalPolicy` and the worker's default. */
export interface PolicySources {
  agents: readonly { name: string; approvalPolicy?: AgentApprovalPolicy }[];
  workerDefault?: PolicySpec;
  /** The judge's model client (the worker's). */
  model?: ChatModelPort;
  /** Told once about each policy that could not be loaded. */
  warn: (message: string) => void;
}

/** The spec that decides a call of `tool` by `agent`: the tool's, the agent's default, the worker's; undefined when none (or `false`). */
export function policySpecFor(option: AgentApprovalPolicy | undefined, tool: string, workerDefault: PolicySpec | undefined): PolicySpec | undefined {
  if (option === undefined) return workerDefault;
  if (option === false) return undefined;
  if ('kind' in option) return option;
  const chosen = option.tools?.[tool] !== undefined ? option.tools[tool] : option.default !== undefined ? option.default : workerDefault;
  return chosen === false ? undefined : chosen;
}

function specsOf(sources: PolicySources): PolicySpec[] {
  const specs: PolicySpec[] = sources.workerDefault ? [sources.workerDefault] : [];
  for (const { approvalPolicy: option } of sources.agents) {
    if (option === undefined || option === false) continue;
    if ('kind' in option) specs.push(option);
    else for (const spec of [option.default, ...Object.values(option.tools ?? {})]) if (spec) specs.push(spec);
  }
  return specs;
}

/** The policy's answer as the permission decision the run records (a failure asks a person, never allows). */
export function decisionOf(policy: { name: string; version: string }, answer: PolicyAnswer, failed: boolean, asked: PermissionDecision): PermissionDecision {
  const outcome = answer.outcome === 'allow' && asked.safety ? 'ask' : answer.outcome;
  const reason = outcome !== answer.outcome ? `${answer.reason}; but a safety check asked, and only a person may allow it` : answer.reason;
  const verdict: PolicyVerdict = { name: policy.name, version: policy.version, outcome, reason, ...(failed ? { failed: true as const } : {}) };
  const label = policyLabel(policy);
  if (outcome === 'allow') return { behavior: 'allow', reason: `allowed by ${label}: ${reason}`, policy: verdict };
  if (outcome === 'deny') return { behavior: 'deny', reason: `denied by ${label}: ${reason}`, ...(asked.safety ? { safety: true } : {}), policy: verdict };
  const why = failed ? `${label} could not decide (${reason}); a person decides: ${asked.reason}` : `${label} asks a person: ${reason}`;
  return { ...asked, reason: why, policy: verdict };
}

/**
 * The policy door: the worker's approval policies, loaded once at start. Only calls the rules ask
 * about reach it (`review`); what it answers is the call's decision, its policy named on it.
 */
export class ApprovalPolicies {
  private constructor(
    private readonly sources: Omit<PolicySources, 'model' | 'warn'>,
    private readonly loaded: ReadonlyMap<string, ApprovalPolicy>,
  ) {}

  /** Reads and compiles every configured policy; one that cannot be loaded asks a person for the calls it was to decide. */
  static async load(sources: PolicySources): Promise<ApprovalPolicies> {
    const loaded = new Map<string, ApprovalPolicy>();
    for (const spec of specsOf(sources)) {
      const key = canonicalJson(spec);
      if (!loaded.has(key)) loaded.set(key, await loadPolicy(spec, sources.model, sources.warn));
    }
    return new ApprovalPolicies({ agents: sources.agents, ...(sources.workerDefault ? { workerDefault: sources.workerDefault } : {}) }, loaded);
  }

  /** The policy that decides calls of `tool` by `agent`, if any. */
  policyFor(agent: string, tool: string): ApprovalPolicy | undefined {
    const option = this.sources.agents.find((candidate) => candidate.name === agent)?.approvalPolicy;
    const spec = policySpecFor(option, tool, this.sources.workerDefault);
    return spec ? this.loaded.get(canonicalJson(spec)) : undefined;
  }

  /** An ASK of the rules, put to the call's policy: allowed, denied, or asked of a person with the policy's reason. */
  async review(request: PolicyRequest, asked: PermissionDecision): Promise<PermissionDecision> {
    const policy = this.policyFor(request.context.agent, request.tool);
    if (!policy) return asked;
    try {
      return decisionOf(policy, await policy.decide(request), false, asked);
    } catch (error) {
      const problem = (error as Error | undefined)?.message || String(error);
      return decisionOf(policy, { outcome: 'ask', reason: problem }, true, asked);
    }
  }
}
