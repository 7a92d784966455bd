import { readFile } from 'node:fs/promises';
import { loadPolicy } from '@open-policy-agent/opa-wasm';
import { readAnswer } from './answer-schema';
import type { ApprovalPolicy, PolicyAnswer, PolicyRequest } from './policy-request';

/**
 * A Rego policy compiled to WebAssembly (`opa build -t wasm -e <entrypoint>`), evaluated with OPA's
 * JavaScript SDK. Its `input` is the PolicyRequest as it is ({ user, tool, arguments, context });
 * the entrypoint must give `{ "outcome": "allow" | "deny" | "ask", "reason": "…" }`. An undefined
 * result (no rule held) or any other value is no answer, and a person is asked.
 */
export async function loadRegoPolicy(spec: { name: string; version: string; file: string; entrypoint?: string }): Promise<ApprovalPolicy> {
  const wasm = await readFile(spec.file);
  const policy = await loadPolicy(wasm);
  const entrypoints = Object.keys((policy.entrypoints ?? {}) as Record<string, number>);
  const entrypoint = spec.entrypoint ?? entrypoints[0];
  if (entrypoint === undefined) throw new Error('the compiled policy has no entrypoint');
  if (!entrypoints.includes(entrypoint)) throw new Error(`the compiled policy has no entrypoint '${entrypoint}' (it has ${entrypoints.join(', ')})`);
  return {
    name: spec.name,
    version: spec.version,
    async decide(request: PolicyRequest): Promise<PolicyAnswer> {
      const results = policy.evaluate(request, entrypoint) as Array<{ result?: unknown }> | undefined;
      const result = results?.[0]?.result;
      if (result === undefined) return { outcome: 'ask', reason: `the policy's ${entrypoint} is undefined for this call` };
      const read = readAnswer(result);
      if ('problem' in read) throw new Error(`${entrypoint} is ${read.problem}`);
      return read.answer;
    },
  };
}
