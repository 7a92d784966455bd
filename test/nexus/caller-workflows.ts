// Workflows of the other team's namespace (B): they run agents of namespace A through Nexus.
import { condition, createNexusServiceClient } from '@temporalio/workflow';
import type { AgentRunResult } from '../../src/common/run';
import type { AgentOperationInput } from '../../src/nexus/operation-input';
import { agentNexusService } from '../../src/nexus/service-definition';

/** Runs `agent` of the endpoint's namespace and returns its result, as a workflow of B would. */
export async function runAgentOverNexus(endpoint: string, service: string, agent: string, input: AgentOperationInput): Promise<AgentRunResult> {
  const client = createNexusServiceClient({ endpoint, service: agentNexusService([agent], { service }) });
  return client.executeOperation(agent, input, { scheduleToCloseTimeout: '2 minutes' });
}

/** The same, but a failed operation is returned as the messages of its failure's chain, so the test can read them. */
export async function failureOverNexus(endpoint: string, service: string, agent: string, input: unknown): Promise<string[]> {
  const client = createNexusServiceClient({ endpoint, service: agentNexusService([agent], { service }) });
  try {
    await client.executeOperation(agent, input as AgentOperationInput, { scheduleToCloseTimeout: '1 minute' });
    return ['no failure'];
  } catch (error) {
    const chain: string[] = [];
    for (let at: unknown = error; at instanceof Error; at = at.cause) {
      const type = (at as { type?: unknown }).type;
      chain.push(`${at.name}${typeof type === 'string' ? `(${type})` : ''}: ${at.message}`);
    }
    return chain;
  }
}

/** B's side of a long operation: a lookup that runs until it is cancelled. */
export async function slowOrderLookup(orderId: string): Promise<string> {
  await condition(() => false);
  return `never: ${orderId}`;
}
