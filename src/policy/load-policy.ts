import type { ChatModelPort } from '../common/contracts/model-call';
import { judgePolicy } from './judge-policy';
import type { PolicySpec } from './policy-config';
import { policyLabel } from './policy-config';
import type { ApprovalPolicy } from './policy-request';

/** A policy that could not be loaded: every call it was to decide asks a person, saying why. */
export function brokenPolicy(spec: { name: string; version: string }, problem: string): ApprovalPolicy {
  return {
    name: spec.name,
    version: spec.version,
    decide: async () => {
      throw new Error(`it could not be loaded: ${problem}`);
    },
  };
}

/**
 * Loads one configured policy (reads its file, compiles it). Never throws: a policy that cannot be
 * loaded is a broken one (it asks a person), and `warn` is told once.
 */
export async function loadPolicy(spec: PolicySpec, model: ChatModelPort | undefined, warn: (message: string) => void): Promise<ApprovalPolicy> {
  try {
    // Each engine's WebAssembly is loaded by the first policy of its kind: a worker without one loads neither.
    if (spec.kind === 'cedar') return await (require('./cedar-policy') as typeof import('./cedar-policy')).loadCedarPolicy(spec);
    if (spec.kind === 'rego') return await (require('./rego-policy') as typeof import('./rego-policy')).loadRegoPolicy(spec);
    if (!model) throw new Error('the worker has no model client for the judge');
    return judgePolicy(spec, model);
  } catch (error) {
    const problem = (error as Error).message || String(error);
    warn(`Approval policy ${policyLabel(spec)} (${spec.kind}${'file' in spec ? `, ${spec.file}` : ''}) could not be loaded: ${problem}. Calls it decides will ask a person.`);
    return brokenPolicy(spec, problem);
  }
}
