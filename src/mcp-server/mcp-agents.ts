import type { AgentDefinition } from '../toolkit/define-agent';
import { jsonSchemaOf, type McpAgent } from './agent-mcp-server';

const MAX_DESCRIPTION_CHARS = 1000;

/** An agent as an MCP tool: its description, or what its instructions say, and that it runs durably. */
export function mcpAgentOf(agent: AgentDefinition): McpAgent {
  const about = agent.description ?? agent.instructions;
  const text = `${about.length > MAX_DESCRIPTION_CHARS ? `${about.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : about}`;
  return {
    name: agent.name,
    description: `The '${agent.name}' agent, run durably (a Temporal workflow). ${text}`,
    ...(agent.output ? { dataSchema: jsonSchemaOf(agent.output.schema) } : {}),
  };
}
