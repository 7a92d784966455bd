import { z, type AnyZodObject } from 'zod';
import { checkToolName, type Tool, type ToolPermission } from './define-tool';
import type { AgentDefinition } from './define-agent';

export const DEFAULT_MAX_AGENT_DEPTH = 3;

export interface AgentToolOptions<I extends AnyZodObject> {
  /** The tool's name as the parent's model sees it; the agent's name by default ('.' becomes '_'). */
  name?: string;
  description?: string;
  /**
   * The input the parent's model fills in; `{ task: string }` by default. A `{ task }` input becomes
   * the sub-agent's prompt as it is; any other input is given to it as JSON.
   */
  input?: I;
  /** May run in parallel with neighbouring concurrency-safe calls (sub-agents of one reply, say). Default false. */
  concurrencySafe?: boolean;
  /**
   * The parent's permission for starting the sub-agent; 'allow' by default, because what the
   * sub-agent does is checked by its own rules, call by call (make it 'ask' to confirm each delegation).
   */
  permission?: ToolPermission;
  /** How deep sub-agents may nest below a top-level run (default 3); a call that would go deeper is refused with an error result. */
  maxDepth?: number;
  /** The sub-agent's runtime context (user, session): the parent's by default, or none. */
  runtime?: 'inherit' | 'none';
  /** Start the sub-agent with the rules a person allowed for the parent's run ("remember for this run"). Default false. */
  inheritSessionRules?: boolean;
  /** The sub-agent's iteration limit for this call; its own maxIters otherwise. */
  maxIters?: number;
}

const defaultInput = () => z.object({ task: z.string().min(1).describe('The task, with everything the agent needs to know to do it') });

/**
 * A tool that delegates to another agent: calling it starts that agent as a child workflow of the
 * run (its own history, tools, permissions and limits), and the agent's final answer is the
 * tool's result. The worker serves the agent it names without listing it again.
 */
export function agentTool<I extends AnyZodObject = ReturnType<typeof defaultInput>>(agent: AgentDefinition, options: AgentToolOptions<I> = {}): Tool<I> {
  const name = options.name ?? agent.name.replace(/\./g, '_');
  checkToolName(name);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_AGENT_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new Error(`agentTool '${name}': maxDepth must be a positive integer.`);
  if (options.maxIters !== undefined && (!Number.isInteger(options.maxIters) || options.maxIters < 1)) {
    throw new Error(`agentTool '${name}': maxIters must be a positive integer.`);
  }
  return {
    kind: 'tool',
    source: 'code',
    name,
    description: options.description ?? agent.description ?? `Delegate a task to the '${agent.name}' agent; it works on it on its own and answers with its result.`,
    input: (options.input ?? defaultInput()) as I,
    concurrencySafe: options.concurrencySafe ?? false,
    permission: options.permission ?? 'allow',
    subAgent: {
      definition: agent,
      maxDepth,
      inheritRuntime: (options.runtime ?? 'inherit') === 'inherit',
      inheritSessionRules: options.inheritSessionRules ?? false,
      ...(options.maxIters !== undefined ? { maxIters: options.maxIters } : {}),
    },
  };
}
