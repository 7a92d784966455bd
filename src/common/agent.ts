import type { MemorySettings } from './memory';
import type { Duration } from '@temporalio/common';
import type { PermissionSettings } from './permissions';
import type { PriceTable } from './pricing';
import type { ToolGroupSpec, ToolSpec } from './tools';

/** Request shaping for the model, all optional; see docs in the README. */
export interface ModelSettings {
  /** Model name sent to the endpoint; the worker's AGENT_MODEL when unset. */
  name?: string;
  /** Models tried in order when the previous one fails for good. */
  fallbacks?: string[];
  stream?: boolean;
  temperature?: number;
  maxTokens?: number;
  toolChoice?: 'auto' | 'required' | 'none';
  parallelToolCalls?: boolean;
  /** Extra JSON fields merged into the request body (provider-specific options). */
  extraBody?: Record<string, unknown>;
  /** Start-to-close timeout of one model call attempt, e.g. '5m'. */
  timeout?: Duration;
  /**
   * How long a model call may go without a sign of life before Temporal retries it (default 60s).
   * Streaming calls heartbeat per chunk, so this bounds a stalled stream; raise it for models
   * that think long before their first token.
   */
  heartbeatTimeout?: Duration;
  /** Attempts per model of the chain (default 5). */
  maximumAttempts?: number;
  /** Prices per model name; with a table, results, state and events carry the cost. */
  prices?: PriceTable;
}

/** Everything the workflow needs to know about an agent, as recorded when the run starts. */
export interface AgentDescriptor {
  name: string;
  instructions: string;
  model: ModelSettings;
  maxIters: number;
  tools: ToolSpec[];
  groups: ToolGroupSpec[];
  /** Offer the `reset_equipped_tools` meta tool. */
  metaTool: boolean;
  permissions: PermissionSettings;
  /** Run consecutive concurrency-safe calls in parallel. */
  parallel: boolean;
  /** How long an ASK waits for a person before it is denied, e.g. '7d'. None by default. */
  approvalTimeout?: Duration;
  /** How long an external call waits for its result before it fails. None by default. */
  externalTimeout?: Duration;
  /** Tool results longer than this many characters are truncated with a marker. */
  maxResultChars: number;
  /** Bound on consecutive empty replies before the run fails. */
  maxEmptyReplies: number;
  /** Largest signal or update payload the run accepts (default 1 MiB); absent in runs recorded before it existed. */
  maxPayloadBytes?: number;
  /** The context budget; none means the whole conversation is sent every time. */
  memory?: MemorySettings;
}
