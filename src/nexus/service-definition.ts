import * as nexus from 'nexus-rpc';
import type { AgentRunResult } from '../common/run';
import type { AgentOperationInput } from './operation-input';

/** The service's name when the worker is not told another. */
export const DEFAULT_AGENT_NEXUS_SERVICE = 'durable-agent';

/** An agent as the service names it: its definition (which types its result) or its name. */
export type NexusAgent = string | { readonly name: string; readonly dataType?: unknown };

type DataOf<A> = A extends { readonly dataType?: infer T } ? T : unknown;
type NameOf<A> = A extends string ? A : A extends { readonly name: infer N extends string } ? N : never;

/** One operation per agent, named after it: the run's input in, its result out (`data` typed by the agent's output schema). */
export type AgentOperations<A extends readonly NexusAgent[]> = {
  [N in NameOf<A[number]>]: nexus.OperationDefinition<AgentOperationInput, AgentRunResult<DataOf<Extract<A[number], N | { readonly name: N }>>>>;
};

export interface AgentNexusServiceOptions {
  /** The service's name; 'durable-agent' by default (the worker's `nexus: { service }` must say the same). */
  service?: string;
}

/**
 * The Nexus service of the agents a worker serves: what the worker's handler implements and what a
 * caller's workflow in another namespace imports for `createNexusServiceClient({ endpoint, service })`.
 * Sandbox-safe (nexus-rpc only), so a workflow bundle may import it.
 */
export function agentNexusService<const A extends readonly NexusAgent[]>(agents: A, options: AgentNexusServiceOptions = {}): nexus.ServiceDefinition<AgentOperations<A>> {
  const operations: Record<string, nexus.PartialOperation<AgentOperationInput, AgentRunResult>> = {};
  for (const agent of agents) {
    const name = typeof agent === 'string' ? agent : agent.name;
    if (typeof name !== 'string' || name === '') throw new TypeError('agentNexusService: each agent must be a name or a definition with one.');
    if (name in operations) throw new TypeError(`agentNexusService: agent '${name}' is named twice.`);
    operations[name] = nexus.operation<AgentOperationInput, AgentRunResult>({ name });
  }
  return nexus.service(options.service ?? DEFAULT_AGENT_NEXUS_SERVICE, operations) as unknown as nexus.ServiceDefinition<AgentOperations<A>>;
}
