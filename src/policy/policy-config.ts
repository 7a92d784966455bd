import { z } from 'zod';

/**
 * An approval policy as configured (an agent's `approvalPolicy`, the worker's AGENT_APPROVAL_POLICY):
 * which kind, its name and version (recorded with every decision), and where it is. Parsed here,
 * at the boundary; the files are read when the worker starts (see load-policy.ts).
 */
const named = {
  /** Recorded with every decision it makes, e.g. `refunds`. */
  name: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, '.', '_', ':' or '-'"),
  /** Recorded beside the name, e.g. `3` or `2026-06-01`. */
  version: z.union([z.string().trim().min(1).max(100), z.number().transform(String)]),
};

export const cedarPolicySchema = z
  .object({
    kind: z.literal('cedar'),
    ...named,
    /** A Cedar policy set (text, `.cedar`). */
    file: z.string().min(1),
  })
  .strict();

export const regoPolicySchema = z
  .object({
    kind: z.literal('rego'),
    ...named,
    /** A Rego policy compiled to WebAssembly (`opa build -t wasm` gives policy.wasm in its bundle). */
    file: z.string().min(1),
    /** The entrypoint to evaluate, e.g. `durable_agent/approval/decision`; the policy's first when unset. */
    entrypoint: z.string().min(1).optional(),
  })
  .strict();

export const judgePolicySchema = z
  .object({
    kind: z.literal('judge'),
    ...named,
    /** What the judge decides by, in words: what may run, what may not, what a person should see. */
    rubric: z.string().min(1).max(20_000),
    /** The model asked; the worker's default model when unset. */
    model: z.string().min(1).optional(),
    /** How long the judge may take before a person is asked instead (default 20 000 ms). */
    timeoutMs: z.number().int().min(100).max(50_000).optional(),
  })
  .strict();

export const policySpecSchema = z.discriminatedUnion('kind', [cedarPolicySchema, regoPolicySchema, judgePolicySchema]);

export type PolicySpec = z.output<typeof policySpecSchema>;
export type PolicySpecInput = z.input<typeof policySpecSchema>;

/** A policy, or `false`: none at this level (a person decides, whatever a wider level says). */
const policyOrNone = z.union([policySpecSchema, z.literal(false)]);

/**
 * An agent's `approvalPolicy`: one policy for all its tools, or per tool with a default for the
 * rest. Unset levels fall through: the tool's, then the agent's default, then the worker's.
 */
export const agentApprovalPolicySchema = z.union([
  policyOrNone,
  z
    .object({
      tools: z.record(z.string().min(1), policyOrNone).optional(),
      default: policyOrNone.optional(),
    })
    .strict(),
]);

export type AgentApprovalPolicy = z.output<typeof agentApprovalPolicySchema>;
export type AgentApprovalPolicyInput = z.input<typeof agentApprovalPolicySchema>;

function problemsOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** The agent's option, parsed; throws an Error that says what is wrong. */
export function parseAgentApprovalPolicy(agent: string, value: unknown): AgentApprovalPolicy {
  const parsed = agentApprovalPolicySchema.safeParse(value);
  if (!parsed.success) throw new Error(`Agent '${agent}': invalid approvalPolicy: ${problemsOf(parsed.error)}.`);
  return parsed.data;
}

/** The worker's default policy, parsed; throws an Error that says what is wrong. */
export function parsePolicySpec(what: string, value: unknown): PolicySpec {
  const parsed = policySpecSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${what} is not an approval policy: ${problemsOf(parsed.error)}.`);
  return parsed.data;
}

/** How a decision names its policy: `refunds-v3`. */
export function policyLabel(policy: { name: string; version: string }): string {
  return `${policy.name}-v${policy.version}`;
}
