import type { PermissionBehavior } from '../common/permissions';
import type { RuntimeContext } from '../common/runtime';

/**
 * What a policy decides about: one call the permission rules would ask a person about. The same
 * shape for Cedar (mapped to principal, action, resource, context), Rego (`input`) and the judge.
 */
export interface PolicyRequest {
  /** The run's user (`runtime.userId`, set by whoever started the run); absent for a run started without one. */
  user: { id?: string };
  tool: string;
  /** The call's arguments, validated (the agent's presets merged in). */
  arguments: unknown;
  context: {
    agent: string;
    workflowId: string;
    runId: string;
    sessionId?: string;
    /** The run's permission mode. */
    mode: string;
    /** Why the rules asked (the permission engine's reason). */
    askedBecause: string;
    /** Whether a safety check asked: a policy may deny such a call, never allow it. */
    safety: boolean;
    /** Everything the run's starter set as `runtime` (userId and sessionId included). */
    runtime: RuntimeContext;
  };
}

/** A policy's answer. */
export interface PolicyAnswer {
  outcome: PermissionBehavior;
  reason: string;
}

/** A loaded policy: it answers, or throws (the door turns a throw into asking a person). */
export interface ApprovalPolicy {
  readonly name: string;
  readonly version: string;
  decide(request: PolicyRequest): Promise<PolicyAnswer>;
}
