import { CURRENT_RUNTIME_FEATURES, RUNTIME_FEATURES, type RuntimeFeature } from '../common/runtime-features';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../common/boundary/limits';
import type { AgentDescriptor } from '../common/agent';
import type { ToolGroupSpec, ToolSpec } from '../common/tools';
import {
  DEFAULT_MAX_EMPTY_REPLIES,
  DEFAULT_MAX_ITERS,
  DEFAULT_MAX_RESULT_CHARS,
  type AgentDefinition,
  type ToolFilter,
} from './define-agent';
import { registerCodeTool } from './from-tool';
import type { RegisteredTool } from './registered-tool';
import { applyToolFilter } from './tool-filter';
import { Toolkit } from './toolkit';
import { jsonSchemaOf } from './json-schema';

export interface RegisteredAgent {
  definition: AgentDefinition;
  toolkit: Toolkit;
  descriptor: AgentDescriptor;
}

export interface AgentRegistryOptions {
  /** Extra tools per agent (e.g. MCP tools), registered after the agent's own tools. */
  extraTools?: (agent: AgentDefinition, toolkit: Toolkit) => RegisteredTool[];
  /** A filter from workspace/tools.json, applied together with the agent's own. */
  sharedFilter?: ToolFilter;
  warn?: (message: string) => void;
  /** The model of agents that name none (the worker's AGENT_MODEL). */
  defaultModel?: string;
}

function mergeFilters(a: ToolFilter | undefined, b: ToolFilter | undefined): ToolFilter {
  return { allow: [...(a?.allow ?? []), ...(b?.allow ?? [])], deny: [...(a?.deny ?? []), ...(b?.deny ?? [])] };
}

function buildAgent(definition: AgentDefinition, options: AgentRegistryOptions, warned: Set<string>): RegisteredAgent {
  const full = new Toolkit();
  for (const tool of definition.tools ?? []) {
    full.register(registerCodeTool(tool, Object.keys(definition.presets?.[tool.name] ?? {})));
  }
  for (const tool of options.extraTools?.(definition, full) ?? []) full.register(tool);

  const filter = mergeFilters(definition.toolFilter, options.sharedFilter);
  const { kept, unmatchedPatterns } = applyToolFilter(full.names(), filter);
  for (const pattern of unmatchedPatterns) {
    const warning = `Agent '${definition.name}': tool filter pattern '${pattern}' matches no tool.`;
    if (!warned.has(warning)) options.warn?.(warning);
    warned.add(warning);
  }
  const toolkit = new Toolkit();
  for (const name of kept) toolkit.register(full.get(name)!);

  const groups: ToolGroupSpec[] = (definition.groups ?? []).map((group) => {
    const unknown = group.tools.filter((name) => !full.has(name));
    if (unknown.length > 0) {
      throw new Error(`Agent '${definition.name}': group '${group.name}' names unknown tools: ${unknown.join(', ')}.`);
    }
    return { name: group.name, description: group.description, tools: group.tools, active: group.active ?? true };
  });

  const descriptor: AgentDescriptor = {
    name: definition.name,
    instructions: definition.instructions,
    model: { ...definition.model, name: definition.model.name ?? options.defaultModel },
    maxIters: definition.maxIters ?? DEFAULT_MAX_ITERS,
    tools: toolkit.specs(),
    groups,
    metaTool: definition.metaTool ?? false,
    permissions: definition.permissions ?? {},
    parallel: definition.parallel ?? true,
    ...(definition.approvalTimeout ? { approvalTimeout: definition.approvalTimeout } : {}),
    ...(definition.externalTimeout ? { externalTimeout: definition.externalTimeout } : {}),
    ...(definition.approvals ? { approvals: definition.approvals } : {}),
    maxResultChars: definition.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    maxEmptyReplies: definition.maxEmptyReplies ?? DEFAULT_MAX_EMPTY_REPLIES,
    ...(definition.repeatedCalls === 'reuse' ? { repeatedCalls: 'reuse' as const } : {}),
    ...(definition.steering === 'interrupt' ? { steering: 'interrupt' as const } : {}),
    maxPayloadBytes: definition.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
    ...(definition.memory ? { memory: definition.memory } : {}),
    ...(definition.budget ? { budget: definition.budget } : {}),
    ...(definition.output
      ? { output: { schema: jsonSchemaOf(definition.output.schema), via: definition.output.via, maxRetries: definition.output.maxRetries } }
      : {}),
    runtimeFeatures: runtimeFeaturesOf(definition, toolkit.specs()),
  };
  return { definition, toolkit, descriptor };
}

/** The features this worker's runs of the agent take: the current ones, and those the agent's settings and tools call for. */
function runtimeFeaturesOf(definition: AgentDefinition, specs: ToolSpec[]): RuntimeFeature[] {
  return [
    ...CURRENT_RUNTIME_FEATURES,
    ...(definition.repeatedReadOnlyCalls === 'run' ? [] : [RUNTIME_FEATURES.reuseReadOnlyRepeats]),
    ...(specs.some((spec) => spec.nexus) ? [RUNTIME_FEATURES.nexusTools] : []),
  ];
}

/**
 * The agents given and every agent their agentTools name, at any depth, each once: a worker that
 * serves an agent serves its sub-agents. Two different definitions of one name stay an error.
 */
export function withSubAgents(definitions: AgentDefinition[]): AgentDefinition[] {
  const seen = new Set<AgentDefinition>();
  const visit = (definition: AgentDefinition) => {
    if (seen.has(definition)) return;
    seen.add(definition);
    for (const tool of definition.tools ?? []) if (tool.subAgent) visit(tool.subAgent.definition);
  };
  definitions.forEach(visit);
  return [...seen];
}

/** The agents a worker serves, each with its own toolkit, built once at worker start. */
export class AgentRegistry {
  private readonly agents = new Map<string, RegisteredAgent>();
  /** Rebuilds (when MCP servers come and go) must not repeat a warning. */
  private readonly warned = new Set<string>();

  constructor(definitions: AgentDefinition[], private readonly options: AgentRegistryOptions = {}) {
    for (const definition of withSubAgents(definitions)) this.add(definition);
  }

  add(definition: AgentDefinition): void {
    if (this.agents.has(definition.name)) throw new Error(`Agent '${definition.name}' is defined twice.`);
    this.agents.set(definition.name, buildAgent(definition, this.options, this.warned));
  }

  /** Rebuild every agent, e.g. after MCP servers came online and brought new tools. */
  rebuild(): void {
    for (const [name, agent] of this.agents) this.agents.set(name, buildAgent(agent.definition, this.options, this.warned));
  }

  get(name: string): RegisteredAgent | undefined {
    return this.agents.get(name);
  }

  names(): string[] {
    return [...this.agents.keys()];
  }
}
