import { memoryProblems, type MemorySettings } from '../common/memory';
import type { Duration } from '@temporalio/common';
import type { ModelSettings } from '../common/agent';
import type { PermissionSettings } from '../common/permissions';
import { validatePermissionSettings } from '../permissions';
import type { AnyTool } from './define-tool';
import { durationProblem } from '../common/duration';
import { stepSettingsProblems } from './step-settings';

export interface ToolGroupOptions {
  name: string;
  description: string;
  tools: string[];
  /** Groups are active unless set to false. */
  active?: boolean;
}

export interface ToolFilter {
  /** `*` globs; an empty or missing list means no restriction. */
  allow?: string[];
  /** `*` globs; deny beats allow. */
  deny?: string[];
}

export interface AgentOptions {
  name: string;
  instructions: string;
  /** What the agent does, for those who call it: the MCP server's tool description, an agentTool's default. */
  description?: string;
  tools?: AnyTool[];
  /** A model name or full settings; the worker's AGENT_MODEL when unset. */
  model?: string | ModelSettings;
  /** At most this many model calls with tools; default 10. */
  maxIters?: number;
  permissions?: PermissionSettings;
  groups?: ToolGroupOptions[];
  /** Offer the `reset_equipped_tools` meta tool so the model can switch groups. */
  metaTool?: boolean;
  toolFilter?: ToolFilter;
  /** Per tool: parameters hidden from the model and merged over its input. */
  presets?: Record<string, Record<string, unknown>>;
  /** Names of the worker's MCP servers whose tools this agent gets; all of them when unset. */
  mcpServers?: string[];
  /** Run consecutive concurrency-safe calls in parallel (default true). */
  parallel?: boolean;
  approvalTimeout?: Duration;
  externalTimeout?: Duration;
  /** Tool results longer than this are truncated with a marker (default 30,000). */
  maxResultChars?: number;
  /** Consecutive empty replies tolerated before the run fails (default 3). */
  maxEmptyReplies?: number;
  /**
   * A call of a tool that is not read-only, with the same arguments as one this run already ran:
   * `run` it again (the default; a person who approves it is told it repeats the earlier one), or
   * `reuse` the earlier result without running anything (small models repeat calls they made).
   */
  repeatedCalls?: 'run' | 'reuse';
  /**
   * What a user message added while the run works does (`run.addInput`): `queue` it for the next
   * model call (the default), or `interrupt` the model call in flight, which is made again with it.
   */
  steering?: 'queue' | 'interrupt';
  /**
   * Largest signal or update payload (edited input, submitted result, …) a run accepts, in bytes
   * of JSON (default 1 MiB; Temporal refuses anything over 2 MiB).
   */
  maxPayloadBytes?: number;
  /**
   * A context budget: before a model call whose conversation would pass `maxTokens`, the oldest
   * messages are summarised into one (see docs/conversations.md, "Context-window management").
   */
  memory?: MemorySettings;
}

export interface AgentDefinition extends Omit<AgentOptions, 'model'> {
  readonly kind: 'agent';
  model: ModelSettings;
}

export const DEFAULT_MAX_ITERS = 10;
export const DEFAULT_MAX_RESULT_CHARS = 30_000;
export const DEFAULT_MAX_EMPTY_REPLIES = 3;

export function defineAgent(options: AgentOptions): AgentDefinition {
  if (!/^[a-zA-Z0-9_.-]+$/.test(options.name)) {
    throw new Error(`Invalid agent name '${options.name}': use letters, digits, '.', '_' or '-'.`);
  }
  if (options.maxIters !== undefined && (!Number.isInteger(options.maxIters) || options.maxIters < 1)) {
    throw new Error(`Agent '${options.name}': maxIters must be a positive integer.`);
  }
  if (options.maxPayloadBytes !== undefined && (!Number.isInteger(options.maxPayloadBytes) || options.maxPayloadBytes < 1024)) {
    throw new Error(`Agent '${options.name}': maxPayloadBytes must be an integer of at least 1024.`);
  }
  const memoryIssues = options.memory ? memoryProblems(options.memory) : [];
  if (memoryIssues.length > 0) throw new Error(`Agent '${options.name}': ${memoryIssues.join('; ')}.`);
  const ruleProblems = validatePermissionSettings(options.permissions ?? {});
  if (ruleProblems.length > 0) {
    throw new Error(`Agent '${options.name}': invalid permission settings:\n- ${ruleProblems.join('\n- ')}`);
  }
  const model = typeof options.model === 'string' ? { name: options.model } : { ...(options.model ?? {}) };
  const timing = [
    ...stepSettingsProblems(model, 'model.'),
    ...[durationProblem('approvalTimeout', options.approvalTimeout), durationProblem('externalTimeout', options.externalTimeout)].filter((p) => p !== undefined),
  ];
  if (timing.length > 0) throw new Error(`Agent '${options.name}': ${timing.join('; ')}.`);
  return { ...options, kind: 'agent', model };
}
