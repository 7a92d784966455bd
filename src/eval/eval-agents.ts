import type { AgentDefinition } from '../toolkit/define-agent';
import type { AnyTool, RichToolResult, ToolContext } from '../toolkit/define-tool';
import type { CaseToolsRegistry } from './case-tools';

function unknownRun(workflowId: string): RichToolResult {
  return { blocks: [{ type: 'text', text: `not run in eval: ${workflowId} is not a run of this eval` }], isError: true };
}

function evalTool(tool: AnyTool, registry: CaseToolsRegistry, wrapAgent: (agent: AgentDefinition) => AgentDefinition): AnyTool {
  if (tool.subAgent) return { ...tool, subAgent: { ...tool.subAgent, definition: wrapAgent(tool.subAgent.definition) } };
  const execute = tool.execute;
  if (!execute) return tool;
  const normalize = (recorded: unknown) => {
    const parsed = tool.input.safeParse(recorded);
    return parsed.success ? parsed.data : recorded;
  };
  return {
    ...tool,
    async execute(input: unknown, ctx: ToolContext) {
      const tools = registry.of(ctx.workflowId);
      if (!tools) return unknownRun(ctx.workflowId);
      if (tools.replays) return tools.replay(tool.name, input, normalize);
      const stub = await tools.stubbed(tool.name, tool.readOnly === true, input);
      return stub ? stub.result : execute(input, ctx);
    },
  };
}

/**
 * The agents as the eval's worker serves them: each tool with an execute function asks the case
 * of the run it serves (by workflow id) whether it runs for real, answers from the case's stubs,
 * or from its recording. Sub-agents are wrapped the same way; each definition once, so an agent
 * reached by two paths stays one agent.
 */
export function evalAgents(agents: AgentDefinition[], registry: CaseToolsRegistry): AgentDefinition[] {
  const wrapped = new Map<AgentDefinition, AgentDefinition>();
  const wrapAgent = (agent: AgentDefinition): AgentDefinition => {
    const done = wrapped.get(agent);
    if (done) return done;
    const copy = { ...agent } as AgentDefinition;
    wrapped.set(agent, copy);
    if (agent.tools) copy.tools = agent.tools.map((tool) => evalTool(tool, registry, wrapAgent));
    return copy;
  };
  return agents.map(wrapAgent);
}
