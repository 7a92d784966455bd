// The workflow of the `nexus` bench part's caller namespace: runs an agent through the endpoint.
import { createNexusServiceClient } from '@temporalio/workflow';
import type { AgentRunResult } from '../src/common/run';
import { agentNexusService } from '../src/nexus/service-definition';

export async function benchNexusCaller(endpoint: string, agent: string, prompt: string, id: string): Promise<AgentRunResult['status']> {
  const client = createNexusServiceClient({ endpoint, service: agentNexusService([agent]) });
  const result = await client.executeOperation(agent, { prompt, id }, { scheduleToCloseTimeout: '5 minutes' });
  return result.status;
}
