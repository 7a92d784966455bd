import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import { PACKAGE_VERSION } from '../common/package-version';
import type { AgentDefinition } from '../toolkit/define-agent';

const MAX_DESCRIPTION_CHARS = 1000;

/** How a client answers a task that waits for a person: told in every card, as docs/a2a.md tells it. */
export const APPROVAL_EXCHANGE =
  'Runs durably (a Temporal workflow); a task is a run and outlives this server. A tool call that needs a person makes the task ' +
  "input-required, its status message naming the tool and its arguments: reply on that task with the text \"approve\" or \"deny: reason\" " +
  '(or a data part { "approve": true } / { "deny": "reason" }); an external tool\'s result is a data part { "result": "..." }. ' +
  'A message for a working task is added to what the run reads next; a new message in a context whose last task completed takes its conversation on.';

function clipped(text: string): string {
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return { id, name, description, tags, examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

/**
 * An agent's A2A card: its description (or what its instructions say) with how approvals are
 * answered, a skill for the agent and one per tool of its own (what it can do, for a client to
 * choose it by), the JSON-RPC endpoint in A2A 1.0 and 0.3, and the bearer scheme when a token is required.
 */
export function agentCardOf(agent: AgentDefinition, endpoint: string, options: { token: boolean }): AgentCard {
  const about = clipped(agent.description ?? agent.instructions);
  const tools = (agent.tools ?? []).map((tool) => skill(`${agent.name}.${tool.name}`, tool.name, clipped(tool.description), ['tool']));
  return {
    name: agent.name,
    description: `${about}\n\n${APPROVAL_EXCHANGE}`,
    supportedInterfaces: duplicateInterfacesForLegacy([{ url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }], ['JSONRPC']),
    provider: undefined,
    version: PACKAGE_VERSION,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: options.token ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', bearerFormat: '', description: 'The token the server was started with (--token)' } } } } : {},
    securityRequirements: options.token ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [skill(agent.name, agent.name, about, ['agent', 'durable-agent']), ...tools],
    signatures: [],
  };
}
