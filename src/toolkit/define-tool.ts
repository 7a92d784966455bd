import type { Duration } from '@temporalio/common';
import type { z, ZodTypeAny } from 'zod';
import type { ContentBlock } from '../common/messages';
import type { PatternKind, PermissionDecision, PermissionMode } from '../common/permissions';
import type { RuntimeContext } from '../common/runtime';
import type { NexusToolSpec, SubAgentSpec, ToolRetrySettings } from '../common/tools';
import type { AgentDefinition } from './define-agent';
import { stepSettingsProblems } from './step-settings';

/** What a tool's execute function receives besides its input. */
export interface ToolContext {
  /** Set by the client at start; the model cannot see or set it. */
  runtime: RuntimeContext;
  agent: string;
  workflowId: string;
  runId: string;
  callId: string;
  /** Stable for one call across retries and worker crashes: `<workflowId>:<callId>`. */
  idempotencyKey: string;
  /** Aborted when the run or the call is cancelled. */
  signal: AbortSignal;
  /** Report progress of a long tool (becomes an activity heartbeat). */
  heartbeat(details?: unknown): void;
  /** Stop here and wait for the result to be submitted from outside (`submitToolResult`). */
  suspend(reason?: string): never;
}

/** What a tool's own permission check receives. */
export interface PermissionCheckContext {
  runtime: RuntimeContext;
  agent: string;
  mode: PermissionMode;
}

export type ToolPermission =
  | 'allow'
  | 'ask'
  | 'deny'
  | ((input: any, ctx: PermissionCheckContext) => PermissionDecision | undefined | Promise<PermissionDecision | undefined>);

/** A tool may return rich content: its text parts reach the model, the rest stays in the run. */
export interface RichToolResult {
  blocks: ContentBlock[];
  isError?: boolean;
}

export type ToolReturn = string | number | boolean | null | undefined | object | RichToolResult;

export interface ToolOptions<I extends ZodTypeAny> {
  name: string;
  description: string;
  input: I;
  /** Reads only: concurrency-safe, allowed in explore and accept_edits modes, retried by default. */
  readOnly?: boolean;
  /** May run in parallel with neighbouring safe calls (defaults to readOnly). */
  concurrencySafe?: boolean;
  /** Executed outside the worker: no execute; the run waits for `submitToolResult`. */
  external?: boolean;
  /** Edits files (accept_edits mode allows it inside the workspace). */
  edits?: boolean;
  /** The input field that rule patterns like `tool(src/**)` match against. */
  patternField?: string;
  /** How rule patterns read that field: a shell `command` or a file `path`. Guessed from the field name. */
  patternKind?: PatternKind;
  permission?: ToolPermission;
  /** One attempt's time limit, e.g. '30s' (default '5m'); running past it counts against `retry.maximumAttempts`. */
  timeout?: Duration;
  retry?: ToolRetrySettings;
  /** How long the worker running the call may go silent before Temporal gives the call to another (default '30s'). */
  heartbeatTimeout?: Duration;
  /**
   * All attempts of one call together, retries after lost workers included (Temporal's
   * schedule-to-close); by default at least an hour and twice what its own attempts may take.
   */
  totalTimeout?: Duration;
  execute?: (input: z.infer<I>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
}

export interface Tool<I extends ZodTypeAny = ZodTypeAny> extends ToolOptions<I> {
  readonly kind: 'tool';
  source: 'code' | 'builtin';
  /** Set by agentTool: the call runs this agent as a child workflow instead of an execute function. */
  subAgent?: SubAgentTool;
  /** Set by nexusTool: the run's workflow starts this Nexus operation instead of an execute function. */
  nexus?: NexusToolSpec;
  /** Set by nexusTool: the schema its operation's result is checked with. */
  nexusOutput?: ZodTypeAny;
}

export interface SubAgentTool extends Omit<SubAgentSpec, 'agent'> {
  definition: AgentDefinition;
}

/** Any tool, whatever its input type (tool lists mix tools of different inputs). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function checkToolName(name: string): void {
  if (!TOOL_NAME.test(name)) throw new Error(`Invalid tool name '${name}': use 1-64 letters, digits, '_' or '-'.`);
}

export function defineTool<I extends ZodTypeAny>(options: ToolOptions<I> & { source?: 'code' | 'builtin' }): Tool<I> {
  checkToolName(options.name);
  if (options.external && options.execute) {
    throw new Error(`Tool '${options.name}' is external and must not have an execute function.`);
  }
  if (!options.external && !options.execute) {
    throw new Error(`Tool '${options.name}' needs an execute function (or external: true).`);
  }
  const problems = stepSettingsProblems({ ...options.retry, timeout: options.timeout, heartbeatTimeout: options.heartbeatTimeout, totalTimeout: options.totalTimeout });
  if (problems.length > 0) throw new Error(`Tool '${options.name}': ${problems.join('; ')}.`);
  return { ...options, kind: 'tool', source: options.source ?? 'code' };
}
