import type { AgentToolListing } from '../agent-tool-listing';
import { printJson, type CliOutput } from '../cli-output';
import { stringOption, type CliCommand } from '../command';
import { alignedTable } from '../../text/table';
import type { AgentsModule } from '../../worker/load-agents-module';

const DETAILS = [
  'The tools live on the worker, so this command builds them the way a worker does, on this machine:',
  'from the agents of --module (a module exporting `agents`, and optionally `mcpServers`, as passed to',
  'createWorker; or the demo agents with --demo) and from tools.json (--tools-config, else AGENT_TOOLS_CONFIG,',
  'else $AGENT_WORKSPACE/tools.json). Each MCP server is started (stdio) or connected (HTTP) just long',
  'enough to list its tools; a server that fails is reported on stderr and its tools are missing, as they',
  'would be on a worker where it is down. No Temporal connection is needed.',
  "PERMISSION is what a call gets when no input-specific rule (like `bash(git:*)`) matches it: the agent's",
  "name rules, mode and default together with the tool's own permission (MCP: from its annotations and the",
  "server's `permission`); 'dynamic' when the tool checks each call itself. --json adds the reason.",
].join('\n');

function printListing(output: CliOutput, listing: AgentToolListing, describeOrigin: (tool: AgentToolListing['tools'][number]) => string): void {
  output.out(`Agent ${listing.agent} (permission mode ${listing.mode}): ${listing.tools.length} tool(s)`);
  if (listing.tools.length === 0) return;
  const rows = listing.tools.map((tool) => [
    tool.name,
    describeOrigin(tool),
    tool.groups.join(',') || '-',
    tool.readOnly ? 'yes' : 'no',
    tool.permission,
  ]);
  for (const line of alignedTable([['NAME', 'SOURCE', 'GROUP', 'READ-ONLY', 'PERMISSION'], ...rows])) output.out(`  ${line}`);
}

export const toolsCommand: CliCommand = {
  name: 'tools',
  usage: 'tools (--module PATH | --demo) [--agent NAME] [--tools-config PATH] [--json]',
  summary: "Every tool an agent would offer, with its source (built-in, code, MCP server), group, read-only flag and permission default.",
  details: DETAILS,
  options: {
    agent: { type: 'string', valueName: 'NAME', description: 'only this agent', defaultText: 'every agent of the module' },
    module: { type: 'string', valueName: 'PATH', description: 'a module exporting `agents` (and optionally `mcpServers`)', env: 'AGENT_MODULE' },
    demo: { type: 'boolean', description: 'the demo agents instead' },
    'tools-config': { type: 'string', valueName: 'PATH', description: 'MCP servers and tool filter', env: 'AGENT_TOOLS_CONFIG', defaultText: '$AGENT_WORKSPACE/tools.json' },
  },
  examples: ['tools --module ./agents.ts', 'tools --module ./agents.ts --agent support --json', 'tools --module ./dist/agents.js --tools-config ./tools.json'],
  async run(ctx) {
    // Loaded here: building agents and MCP connections costs start-up time the other commands should not pay.
    const { commandAgentsSource, loadCommandAgents } = require('../agents-source') as typeof import('../agents-source');
    const { readWorkerConfig } = require('../../worker/config') as typeof import('../../worker/config');
    const { listAgentTools, describeOrigin } = require('../agent-tool-listing') as typeof import('../agent-tool-listing');
    const { buildLocalAgentRegistry } = require('../local-agent-registry') as typeof import('../local-agent-registry');
    const config = readWorkerConfig();
    const module: AgentsModule = await loadCommandAgents(commandAgentsSource(ctx), config.workspace);
    const wanted = stringOption(ctx, 'agent');
    if (wanted && !module.agents.some((agent) => agent.name === wanted)) {
      throw new Error(`Unknown agent '${wanted}'. The module defines: ${module.agents.map((a) => a.name).join(', ')}.`);
    }
    const toolsConfigPath = stringOption(ctx, 'tools-config') ?? config.toolsConfigPath;
    const local = await buildLocalAgentRegistry(module, toolsConfigPath);
    try {
      const names = wanted ? [wanted] : local.registry.names();
      const listings = names.map((name) => listAgentTools(local.registry.get(name)!));
      for (const server of local.servers.filter((s) => s.state !== 'connected')) {
        ctx.output.err(`MCP server '${server.server}' is not connected (${server.error ?? server.state}); its tools are missing.`);
      }
      if (ctx.json) {
        const servers = local.servers.map(({ server, transport, state, toolCount, error }) => ({
          server,
          transport,
          state,
          toolCount,
          ...(error ? { error } : {}),
        }));
        printJson(ctx.output, { agents: listings, servers });
      } else {
        listings.forEach((listing, index) => {
          if (index > 0) ctx.output.out('');
          printListing(ctx.output, listing, describeOrigin);
        });
      }
      return 0;
    } finally {
      await local.close();
    }
  },
};
