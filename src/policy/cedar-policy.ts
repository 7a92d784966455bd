import { readFile } from 'node:fs/promises';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import type { CedarValueJson, DetailedError } from '@cedar-policy/cedar-wasm/nodejs';
import type { ApprovalPolicy, PolicyAnswer, PolicyRequest } from './policy-request';

/**
 * A Cedar policy set (cedar-wasm). The call is `principal` User::"<runtime.userId>" (Anonymous::"anonymous"
 * without one), `action` Action::"<tool>", `resource` Agent::"<agent>", `context` { arguments, agent,
 * tool, workflowId, runId, mode, askedBecause, safety, sessionId?, userId? }.
 *
 * Cedar answers allow or deny; here a permit that holds allows, a forbid that holds denies (or asks
 * a person when the forbid is annotated `@ask`), and when no policy holds a person is asked. A
 * policy's `@reason("…")` annotation is the reason recorded and shown; `@id("…")` names it.
 */

interface CedarPart {
  id: string;
  reason?: string;
  ask: boolean;
}

let preparsedCount = 0;

function errorsText(errors: DetailedError[]): string {
  return errors.map((error) => error.message).join('; ') || 'unknown error';
}

/** JSON as Cedar takes it: no null, integers as Long, other numbers as decimals (4 places) or, past that, strings. */
export function cedarValue(value: unknown): CedarValueJson | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value;
    const fixed = value.toFixed(4);
    return Number.isFinite(value) && Number(fixed) === value ? { __extn: { fn: 'decimal', arg: fixed } } : String(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(cedarValue).filter((item): item is CedarValueJson => item !== undefined);
  if (typeof value === 'object') {
    const record: Record<string, CedarValueJson> = {};
    for (const [key, item] of Object.entries(value)) {
      const converted = cedarValue(item);
      if (converted !== undefined) record[key] = converted;
    }
    return record;
  }
  return String(value);
}

function partsOf(text: string): { texts: Record<string, string>; parts: Map<string, CedarPart> } {
  const split = cedar.policySetTextToParts(text);
  if (split.type === 'failure') throw new Error(`the Cedar policy set does not parse: ${errorsText(split.errors)}`);
  if (split.policy_templates.length > 0) throw new Error('the Cedar policy set has templates; give static policies only');
  const texts: Record<string, string> = {};
  const parts = new Map<string, CedarPart>();
  split.policies.forEach((policy, index) => {
    const json = cedar.policyToJson(policy);
    if (json.type === 'failure') throw new Error(`Cedar policy ${index} does not parse: ${errorsText(json.errors)}`);
    const annotations = json.json.annotations ?? {};
    const id = annotations.id ?? `policy${index}`;
    if (parts.has(id)) throw new Error(`two Cedar policies have the id '${id}'`);
    texts[id] = policy;
    parts.set(id, { id, ask: 'ask' in annotations, ...(annotations.reason ? { reason: annotations.reason } : {}) });
  });
  if (parts.size === 0) throw new Error('the Cedar policy set has no policy');
  return { texts, parts };
}

export function cedarRequest(request: PolicyRequest) {
  const { context } = request;
  const principal = request.user.id !== undefined ? { type: 'User', id: request.user.id } : { type: 'Anonymous', id: 'anonymous' };
  const values: Record<string, unknown> = {
    arguments: request.arguments ?? {},
    agent: context.agent,
    tool: request.tool,
    workflowId: context.workflowId,
    runId: context.runId,
    mode: context.mode,
    askedBecause: context.askedBecause,
    safety: context.safety,
    sessionId: context.sessionId,
    userId: request.user.id,
  };
  return {
    principal,
    action: { type: 'Action', id: request.tool },
    resource: { type: 'Agent', id: context.agent },
    context: cedarValue(values) as Record<string, CedarValueJson>,
  };
}

function reasonOf(ids: string[], parts: Map<string, CedarPart>): string {
  return ids.map((id) => parts.get(id)?.reason ?? `policy ${id}`).join('; ');
}

/** Reads and parses the policy set; throws when it cannot be used. */
export async function loadCedarPolicy(spec: { name: string; version: string; file: string }): Promise<ApprovalPolicy> {
  const { texts, parts } = partsOf(await readFile(spec.file, 'utf8'));
  const setId = `${spec.name}@${spec.version}#${++preparsedCount}`;
  const prepared = cedar.preparsePolicySet(setId, { staticPolicies: texts });
  if (prepared.type === 'failure') throw new Error(`the Cedar policy set does not parse: ${errorsText(prepared.errors)}`);
  return {
    name: spec.name,
    version: spec.version,
    async decide(request: PolicyRequest): Promise<PolicyAnswer> {
      const answer = cedar.statefulIsAuthorized({ ...cedarRequest(request), preparsedPolicySetId: setId, entities: [] });
      if (answer.type === 'failure') throw new Error(`Cedar could not evaluate the call: ${errorsText(answer.errors)}`);
      const { decision, diagnostics } = answer.response;
      const errored = diagnostics.errors.map((error) => `${error.policyId}: ${error.error.message}`);
      const determining = diagnostics.reason;
      if (decision === 'allow') {
        // A forbid that failed to evaluate might have held: nothing is allowed past an error.
        if (errored.length > 0) return { outcome: 'ask', reason: `${reasonOf(determining, parts)}, but a policy failed to evaluate (${errored.join('; ')})` };
        return { outcome: 'allow', reason: reasonOf(determining, parts) };
      }
      const hard = determining.filter((id) => !parts.get(id)?.ask);
      if (hard.length > 0) return { outcome: 'deny', reason: reasonOf(hard, parts) };
      if (determining.length > 0) return { outcome: 'ask', reason: reasonOf(determining, parts) };
      if (errored.length > 0) return { outcome: 'ask', reason: `no policy decided; some failed to evaluate (${errored.join('; ')})` };
      return { outcome: 'ask', reason: 'no policy decided this call' };
    },
  };
}
