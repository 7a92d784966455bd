import { approvalSettingsProblem, type ApprovalSettings } from '../common/approvals';
import { memoryProblems, type MemorySettings } from '../common/memory';
import { budgetProblem, type Budget } from '../common/budget';
import type { Duration } from '@temporalio/common';
import type { z, ZodTypeAny } from 'zod';
import type { ModelSettings } from '../common/agent';
import type { PermissionSettings } from '../common/permissions';
import { validatePermissionSettings } from '../permissions';
import type { AnyTool } from './define-tool';
import { durationProblem } from '../common/duration';
import { stepSettingsProblems } from './step-settings';
import { FINAL_ANSWER_TOOL } from '../common/typed-output';
import { parseAgentApprovalPolicy, type AgentApprovalPolicy, type AgentApprovalPolicyInput } from '../policy/policy-config';

/** A typed answer: the zod schema it must fit, how the model is asked for it, and how many wrong answers are fed back. */
export interface OutputOptions<S extends ZodTypeAny = ZodTypeAny> {
  schema: S;
  /** `response_format` (default): the provider's JSON-schema response format; `tool`: a `final_answer` tool the model calls. */
  via?: 'response_format' | 'tool';
  /** Wrong answers (not JSON, or not of the schema) fed back with their paths before the run fails (default 2). */
  maxRetries?: number;
}

export const DEFAULT_OUTPUT_RETRIES = 2;

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

export interface AgentOptions<S extends ZodTypeAny = ZodTypeAny> {
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
  /**
   * A policy that decides first what the permission rules would ask a person about: Cedar, Rego
   * compiled to WebAssembly, or a judge model; per tool under `tools`, `false` for none. It allows,
   * denies, or asks a person with its reason shown. Unset: the worker's (docs/policies.md).
   */
  approvalPolicy?: AgentApprovalPolicyInput;
  /** Who may answer its approvals (per tool under `tools`), reminders and escalation: docs/approvals.md. */
  approvals?: ApprovalSettings;
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
   * A call of a read-only tool with the same arguments as one that already succeeded in this run:
   * `reuse` its result with a note to the model that it was not run again (the default; small
   * models call the same lookup over and over), or `run` it again (a tool whose answer changes
   * with time, polled on purpose).
   */
  repeatedReadOnlyCalls?: 'reuse' | 'run';
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
  /**
   * A typed answer: a zod schema (or `{ schema, via, maxRetries }`). The model is asked for that
   * shape, its answer is checked, a wrong one is fed back; the run's result carries it as `data`
   * and the client's `result()` parses it with the schema (see docs/typed-results.md).
   */
  output?: S | OutputOptions<S>;
  /**
   * What each run may spend on model calls, its sub-agents' included: `{ cost: 2 }` (needs
   * `model.prices`), `{ tokens: 200_000 }`, with `onReached: 'stop'` to end at once instead of
   * asking a person for `more` (see docs/budgets.md).
   */
  budget?: Budget;
}

export interface AgentDefinition<TData = unknown> extends Omit<AgentOptions, 'model' | 'output' | 'approvalPolicy'> {
  readonly kind: 'agent';
  approvalPolicy?: AgentApprovalPolicy;
  model: ModelSettings;
  output?: Required<OutputOptions>;
  /** Type only, never set: the type of the agent's typed answer (`undefined` for a text answer). */
  readonly dataType?: TData;
}

export const DEFAULT_MAX_ITERS = 10;
export const DEFAULT_MAX_RESULT_CHARS = 30_000;
export const DEFAULT_MAX_EMPTY_REPLIES = 3;

function isZodSchema(value: unknown): value is ZodTypeAny {
  return typeof (value as ZodTypeAny | undefined)?.safeParse === 'function';
}

function outputOf(name: string, output: ZodTypeAny | OutputOptions, tools: AgentOptions['tools']): Required<OutputOptions> {
  const given = isZodSchema(output) ? { schema: output } : output;
  if (!isZodSchema(given?.schema)) throw new Error(`Agent '${name}': output must be a zod schema or { schema: <zod schema>, via?, maxRetries? }.`);
  const maxRetries = given.maxRetries ?? DEFAULT_OUTPUT_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new Error(`Agent '${name}': output.maxRetries must be a whole number of at least 0.`);
  const via = given.via ?? 'response_format';
  if (via !== 'response_format' && via !== 'tool') throw new Error(`Agent '${name}': output.via must be 'response_format' or 'tool'.`);
  if (via === 'tool' && (tools ?? []).some((tool) => tool.name === FINAL_ANSWER_TOOL)) {
    throw new Error(`Agent '${name}': a tool is named '${FINAL_ANSWER_TOOL}', the tool the model answers through with output.via 'tool'; rename it.`);
  }
  return { schema: given.schema, via, maxRetries };
}

export function defineAgent<S extends ZodTypeAny = never>(options: AgentOptions<S>): AgentDefinition<[S] extends [never] ? undefined : z.output<S>> {
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
  const approvals = approvalSettingsProblem('approvals', options.approvals);
  if (approvals) throw new Error(`Agent '${options.name}': ${approvals}.`);
  const budget = budgetProblem('budget', options.budget);
  if (budget) throw new Error(`Agent '${options.name}': ${budget}.`);
  if (options.budget?.cost !== undefined && !model.prices) {
    throw new Error(`Agent '${options.name}': budget.cost needs model.prices (a price per model), or nothing is charged against it.`);
  }
  const approvalPolicy = options.approvalPolicy !== undefined ? parseAgentApprovalPolicy(options.name, options.approvalPolicy) : undefined;
  const { output, approvalPolicy: _given, ...rest } = options;
  return { ...rest, ...(approvalPolicy !== undefined ? { approvalPolicy } : {}), kind: 'agent', model, ...(output !== undefined ? { output: outputOf(options.name, output, options.tools) } : {}) };
}
