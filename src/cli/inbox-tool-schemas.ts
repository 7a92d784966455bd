import type { ToolSchemas } from '../inbox/inbox-server';
import { AgentRegistry, withSubAgents } from '../toolkit/agent-registry';
import type { AgentDefinition } from '../toolkit/define-agent';

/**
 * The input schema of every tool of these agents and their sub-agents, as the model sees it (and
 * the run validates edits against it). Tools a worker adds at run time (MCP servers) are not known
 * here: their calls are answered with the JSON view.
 */
export function inboxToolSchemas(definitions: AgentDefinition[]): ToolSchemas {
  const registry = new AgentRegistry(withSubAgents(definitions), { warn: () => undefined });
  const schemas: ToolSchemas = {};
  for (const name of registry.names()) {
    const agent = registry.get(name)!;
    schemas[name] = Object.fromEntries(agent.descriptor.tools.map((tool) => [tool.name, tool.parameters]));
  }
  return schemas;
}
