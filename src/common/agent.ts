import type { ApprovalSettings } from './approvals';
import type { Budget } from './budget';
import type { MemorySettings } from './memory';
import type { Duration } from '@temporalio/common';
import type { PermissionSettings } from './permissions';
import type { PriceTable } from './pricing';
import type { RuntimeFeature } from './runtime-features';
import type { ToolGroupSpec, ToolSpec } from './tools';
import type { OutputSpec } from './typed-output';

/** Request shaping for the model, all optional; see docs/providers.md. */
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
  /** One model call attempt's time limit, e.g. '5m' (default); running past it counts against `maximumAttempts`. */
  timeout?: Duration;
  /**
   * How long the worker running a model call may go silent before Temporal gives the call to
   * another worker (default 60s). A streaming call that receives no chunk for this long fails as
   * the model's own (counted) failure; raise it for models that think long before their first token.
   */
  heartbeatTimeout?: Duration;
  /**
   * Attempts per model of the chain that the model's own failures may use (default 5): HTTP
   * errors a retry may fix, a run past `timeout`, a stalled stream. Lost workers and an
   * unreachable server use none.
   */
  maximumAttempts?: number;
  /** All attempts of one call together, retries after lost workers included; by default at least an hour. */
  totalTimeout?: Duration;
  /** Prices per model name; with a table, results, state and events carry the cost. */
  prices?: PriceTable;
  /**
   * Read tool calls the model writes in its reply's text (JSON naming a tool, `<tool_call>` tags,
   * the formats open models use) as tool calls, when the reply has no native ones. Unset: as the
   * worker says for the model (AGENT_TEXT_TOOL_CALLS).
   */
  textToolCalls?: boolean;
  /**
   * Hold each reply to a call of an offered tool (its arguments fitting the tool's JSON Schema) or
   * an answer, with the server's JSON-schema response format: for servers that enforce it with a
   * grammar (llama-server, vLLM), where small models then always write a valid call. Unset: as the
   * worker says for the model (AGENT_CONSTRAINED_CALLS).
   */
  constrainedCalls?: boolean;
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
  /** Who may answer its approvals, reminders and escalation (see approvals.ts); with the worker's default folded in. */
  approvals?: ApprovalSettings;
  /** How long an external call waits for its result before it fails. None by default. */
  externalTimeout?: Duration;
  /** Tool results longer than this many characters are truncated with a marker. */
  maxResultChars: number;
  /** Bound on consecutive empty replies before the run fails. */
  maxEmptyReplies: number;
  /** `reuse`: a repeated call of a tool that is not read-only gets the earlier result without running (see repeated-calls.ts); absent: it runs. */
  repeatedCalls?: 'reuse';
  /** `interrupt`: an added input cancels the model call in flight (see steering.ts); absent: it waits for the next call. */
  steering?: 'interrupt';
  /** Largest signal or update payload the run accepts (default 1 MiB); absent in runs recorded before it existed. */
  maxPayloadBytes?: number;
  /** The context budget; none means the whole conversation is sent every time. */
  memory?: MemorySettings;
  /** A typed answer (`defineAgent({ output })`): the model is asked for this shape and its answer checked; absent: the answer is text. */
  output?: OutputSpec;
  /** What a run may spend (`defineAgent({ budget })`, with the worker's budget for the run's user folded in); none by default. */
  budget?: Budget;
  /** What the describing worker's workflow code may do that older code did not (see runtime-features.ts); absent before 0.5.0. */
  runtimeFeatures?: RuntimeFeature[];
}
