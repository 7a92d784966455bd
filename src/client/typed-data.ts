import type { ZodTypeAny } from 'zod';
import type { AgentRunResult } from '../common/run';
import type { AgentDefinition } from '../toolkit/define-agent';

/** An agent as a client names it: by name, or by its definition (then a typed answer is parsed with its output schema). */
export type AgentRef<TData = unknown> = string | AgentDefinition<TData>;

/**
 * A run's result, `data` typed: the parsed answer for an agent whose definition has an output
 * schema, `undefined` for one without, `unknown` for an agent named by its name only.
 */
export type RunResult<TData = unknown> = AgentRunResult<TData> & { data: TData };

/** The parse of a run's typed answer, when the client was given the agent's definition with an output schema. */
export type DataParser = (data: unknown, workflowId: string) => unknown;

export function agentNameOf(agent: AgentRef<unknown>): string {
  return typeof agent === 'string' ? agent : agent.name;
}

export function dataParserOf(agent: AgentRef<unknown>): DataParser | undefined {
  const schema: ZodTypeAny | undefined = typeof agent === 'string' ? undefined : agent.output?.schema;
  if (!schema) return undefined;
  return (data, workflowId) => {
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `/${issue.path.join('/')}` : '(the answer)'}: ${issue.message}`);
    throw new Error(`Run ${workflowId}'s answer does not fit the output schema this client has for it (another version of the agent?): ${problems.join('; ')}`);
  };
}
