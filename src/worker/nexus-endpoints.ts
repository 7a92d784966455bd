import type { NativeConnection } from '@temporalio/worker';
import type { AgentRegistry } from '../toolkit/agent-registry';

/** Each endpoint the agents' nexusTools name, with the tools that name it (`agent/tool`). */
function endpointsOf(registry: AgentRegistry): Map<string, string[]> {
  const endpoints = new Map<string, string[]>();
  for (const agent of registry.names()) {
    for (const spec of registry.get(agent)?.descriptor.tools ?? []) {
      if (!spec.nexus) continue;
      const tools = endpoints.get(spec.nexus.endpoint) ?? [];
      endpoints.set(spec.nexus.endpoint, [...tools, `${agent}/${spec.name}`]);
    }
  }
  return endpoints;
}

/** Whether the cluster has the endpoint; true when the connection may not list endpoints (nothing to check against). */
function endpointListed(connection: NativeConnection, endpoint: string): Promise<boolean> {
  return connection.operatorService.listNexusEndpoints({ name: endpoint, pageSize: 1 }).then(
    (answer) => (answer.endpoints ?? []).some((listed) => listed.spec?.name === endpoint),
    () => true,
  );
}

/** How long an endpoint found stays known; one not found is asked again at the next call, so creating it takes effect at once. */
const FOUND_FOR_MS = 60_000;

/**
 * Whether a nexusTool's endpoint exists, asked before its call is allowed or put to a person: the
 * server refuses to schedule an operation on an endpoint it lacks, which would fail the run's
 * workflow task again and again, so such a call becomes an error result the model reads instead.
 */
export function nexusEndpointLookup(connection: NativeConnection): (endpoint: string) => Promise<boolean> {
  const foundAt = new Map<string, number>();
  return async (endpoint) => {
    const at = foundAt.get(endpoint);
    if (at !== undefined && Date.now() - at < FOUND_FOR_MS) return true;
    const found = await endpointListed(connection, endpoint);
    if (found) foundAt.set(endpoint, Date.now());
    else foundAt.delete(endpoint);
    return found;
  };
}

/**
 * Warnings about the endpoints nexusTools name that the cluster does not have: a run that calls
 * such a tool cannot schedule the operation (the server refuses the command, so its workflow task
 * fails and is retried) until the endpoint is created. Endpoints the connection may not list (a
 * Temporal Cloud namespace's key, say) are not warned about.
 */
export async function missingNexusEndpoints(connection: NativeConnection, registry: AgentRegistry): Promise<string[]> {
  const warnings: string[] = [];
  for (const [endpoint, tools] of endpointsOf(registry)) {
    if (!(await endpointListed(connection, endpoint))) {
      warnings.push(
        `The Nexus endpoint '${endpoint}' (named by ${tools.join(', ')}) does not exist on this cluster: calls of these tools are ` +
          `answered with an error until it is created (temporal operator nexus endpoint create --name ${endpoint} --target-namespace … --target-task-queue …).`,
      );
    }
  }
  return warnings;
}
