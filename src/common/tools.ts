import type { Duration } from '@temporalio/common';
import type { PermissionBehavior } from './permissions';

export type JsonSchema = Record<string, unknown>;

export type ToolSource =
  | { kind: 'code' }
  | { kind: 'builtin' }
  | { kind: 'mcp'; server: string; toolName: string };

/** Retry settings for a tool's activity, in Temporal's terms (durations like '2s'). */
export interface ToolRetrySettings {
  /**
   * Attempts the call's own failures may use (a RetryableToolError, a run past `timeout`). A lost
   * worker, a worker without the tool or an unreachable server uses none: those are retried within
   * `totalTimeout`.
   */
  maximumAttempts?: number;
  initialInterval?: Duration;
  backoffCoefficient?: number;
  maximumInterval?: Duration;
}

/** What the workflow knows about a tool: serializable, no code. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input as the model sees it (preset parameters removed). */
  parameters: JsonSchema;
  readOnly: boolean;
  /** May run in parallel with neighbouring concurrency-safe calls. */
  concurrencySafe: boolean;
  /** Executed outside the worker: the workflow waits for a submitted result. */
  external: boolean;
  source: ToolSource;
  /** The tool's static permission, when it declares one ('dynamic' when it is a function). */
  permission?: PermissionBehavior | 'dynamic';
  /** Start-to-close timeout of one attempt, e.g. '30s'. */
  timeout?: Duration;
  retry?: ToolRetrySettings;
  /** Heartbeat timeout for long tools that heartbeat, e.g. '10s'. */
  heartbeatTimeout?: Duration;
  /** All attempts of one call together, crashes included (Temporal's schedule-to-close). */
  totalTimeout?: Duration;
  /** The tool runs another agent as a child workflow (agentTool); its answer is the result. */
  subAgent?: SubAgentSpec;
  /** The tool is another team's Nexus operation (nexusTool), started from the run's workflow; its result is the call's. */
  nexus?: NexusToolSpec;
}

/** Where a nexusTool's operation is: the endpoint the caller's namespace reaches, the service and operation behind it. */
export interface NexusToolSpec {
  endpoint: string;
  service: string;
  operation: string;
  /** The whole operation, its retries included (Temporal's schedule-to-close), e.g. '10 minutes'. */
  timeout?: Duration;
  /** The tool has an `output` schema: the operation's result is checked on a worker before the model reads it. */
  checksOutput?: boolean;
}

export interface SubAgentSpec {
  agent: string;
  /** How deep sub-agents may nest below a top-level run; a call that would go deeper gets an error result. */
  maxDepth: number;
  /** The sub-agent starts with the parent's session rules (the rules a person allowed for the run). */
  inheritSessionRules: boolean;
  /** The sub-agent's runtime context: the parent's (default) or none. */
  inheritRuntime: boolean;
  maxIters?: number;
}

export interface ToolGroupSpec {
  name: string;
  description: string;
  tools: string[];
  active: boolean;
}
