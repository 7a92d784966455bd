/** Approval policies (Cedar, Rego compiled to WebAssembly, a judge model): they decide what the rules would ask a person about. */
export { ApprovalPolicies, decisionOf, policySpecFor, type PolicySources } from './approval-policies';
export {
  agentApprovalPolicySchema,
  parseAgentApprovalPolicy,
  parsePolicySpec,
  policyLabel,
  policySpecSchema,
  type AgentApprovalPolicy,
  type AgentApprovalPolicyInput,
  type PolicySpec,
  type PolicySpecInput,
} from './policy-config';
export type { ApprovalPolicy, PolicyAnswer, PolicyRequest } from './policy-request';
