import type { ApprovalSettings } from '../common/approvals';
import type { ConnectionOverrides } from '../connection/connection-overrides';
import { WorkerConfigurationError } from './configuration-error';
import { budgetProblem, type Budget } from '../common/budget';
import { modelLimitsProblem, type ModelLimits } from '../common/model-limits';
import { parsePolicySpec, type PolicySpec, type PolicySpecInput } from '../policy/policy-config';

/** Connection settings besides address and namespace: TLS, API key, profile, config file, timeout. */
export type TemporalConnectionOptions = Omit<ConnectionOverrides, 'address' | 'namespace'>;

/** Settings read once from the environment at start, then passed in; workflows never read env. */
export interface WorkerConfig {
  /**
   * The Temporal frontend. Given to createWorker it wins over TEMPORAL_ADDRESS and the config
   * profile; on a running worker it is the address resolved from all of them.
   */
  temporalAddress: string;
  /** Like temporalAddress: TEMPORAL_NAMESPACE and the profile otherwise. */
  namespace: string;
  /** Overrides of the rest of Temporal's environment configuration; never holds a key on a running worker. */
  temporal?: TemporalConnectionOptions;
  taskQueue: string;
  /** OpenAI-compatible endpoint; OpenAI's when unset. */
  openaiBaseUrl?: string;
  /** Kept out of logs and history; only the model client holds it. */
  openaiApiKey?: string;
  defaultModel: string;
  toolsConfigPath: string;
  workspace: string;
  /**
   * Runs the worker keeps in memory between their workflow tasks (Temporal's maxCachedWorkflows).
   * Bounds the worker's memory however many runs wait; a run resumed after it left the cache is
   * rebuilt by one replay of its history.
   */
  maxCachedRuns: number;
  /**
   * Models whose replies' text is read for tool calls written there instead of in `tool_calls`
   * (`*`: every model), unless an agent's model settings say (`textToolCalls`). None by default.
   */
  textToolCallModels?: string[];
  /**
   * Models whose replies are held to a call of an offered tool or an answer by the server's
   * JSON-schema response format (`*`: every model), unless an agent's model settings say
   * (`constrainedCalls`). None by default.
   */
  constrainedCallModels?: string[];
  /**
   * The live endpoint that serves streaming model calls' deltas to followers (`run.stream()`):
   * where it listens (`off`: none; followers then read the text from heartbeats, a second late)
   * and the address it gives clients when that differs (a proxy, a bind to 0.0.0.0).
   */
  live?: LiveSettings;
  /**
   * Budgets for the runs of a runtime user (`runtime.userId`), by user id, `*` for any user: each
   * run (and conversation) started for that user keeps it besides its agent's and its own, each
   * limit the smallest (see docs/budgets.md). None by default.
   */
  userBudgets?: Record<string, Budget>;
  /**
   * Who may answer approvals, reminders and escalation for agents that do not say (field by field
   * under the agent's own `approvals`): see docs/approvals.md. None by default.
   */
  approvals?: ApprovalSettings;
  /**
   * Requests and tokens per minute by model name, kept by all workers of the task queue together
   * (every worker should set the same): a model call waits for its turn, and a 429 pauses every
   * worker's calls of that model (see docs/rate-limits.md). None by default.
   */
  modelLimits?: Record<string, ModelLimits>;
  /**
   * The approval policy of agents that set none (`approvalPolicy`): Cedar, Rego compiled to
   * WebAssembly or a judge model, which decides what the rules would ask a person about
   * (AGENT_APPROVAL_POLICY, JSON; see docs/policies.md). None by default.
   */
  approvalPolicy?: PolicySpecInput;
  /**
   * Serve the agents as a Nexus service of this name (AGENT_NEXUS_SERVICE; see docs/nexus.md), as
   * `createWorker({ nexus: { service } })` does; that option wins. None by default.
   */
  nexusService?: string;
}

export type LiveSettings = { off: true } | { host: string; port: number; url?: string };

/** The worker's own settings; the connection (address, namespace, TLS, API key) comes from resolveConnectionSettings. */
export type WorkerEnvConfig = Omit<WorkerConfig, 'temporalAddress' | 'namespace' | 'temporal'>;

export const DEFAULT_TASK_QUEUE = 'durable-agent';
export const DEFAULT_MODEL = 'gpt-4o-mini';
/**
 * A cached run costs about 0.125 MiB of heap, its workflow code and the worker's own bookkeeping
 * (measured by `npm run bench`, P3; over 1 MiB when traced), so 150 of them stay within about
 * 20 MiB: with 200, 1,000 parked runs grew the heap by 29.6–30.7 MiB in three runs, at the edge of
 * the 30 MiB the project holds itself to. Temporal's own default grows with the machine's memory
 * (over 2,000 on 24 GiB), which lets runs waiting for people fill the heap.
 */
export const DEFAULT_MAX_CACHED_RUNS = 150;

function readMaxCachedRuns(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_MAX_CACHED_RUNS;
  const count = Number(value.trim());
  // Temporal takes 0 (no cache: every workflow task replays) or at least 2.
  if (!Number.isInteger(count) || count === 1 || count < 0) {
    throw new WorkerConfigurationError(`AGENT_MAX_CACHED_RUNS=${value} is not a cache size: give 0 (no cache) or a whole number of at least 2.`);
  }
  return count;
}

/** Loopback by default: a fleet on several machines sets an address its clients can reach. */
export const DEFAULT_LIVE_ADDRESS = '127.0.0.1:0';

export function readLiveSettings(address: string | undefined, url: string | undefined): LiveSettings {
  const given = address?.trim() || DEFAULT_LIVE_ADDRESS;
  if (given === 'off') return { off: true };
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(given);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65_535) {
    throw new WorkerConfigurationError(`AGENT_LIVE_ADDRESS=${address} is not HOST:PORT (e.g. 0.0.0.0:7300, or 127.0.0.1:0 for a free port) or off.`);
  }
  const advertised = url?.trim();
  if (advertised && !/^https?:\/\/[^/]+/.test(advertised)) {
    throw new WorkerConfigurationError(`AGENT_LIVE_URL=${url} is not an http(s) URL such as http://worker-1.internal:7300.`);
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port, ...(advertised ? { url: advertised } : {}) };
}

/** The settings that were given (a setting left out stays out, not `undefined`). */
function definedOnly<T extends object>(settings: T): Partial<T> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A setting given as JSON in a variable: undefined when empty, else parsed and checked by `check`. */
function readJsonSetting<T>(value: string | undefined, what: string, example: string, check: (parsed: unknown, what: string) => T): T | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new WorkerConfigurationError(`${what} is not JSON: ${(error as Error).message}. Give e.g. ${example}.`);
  }
  return check(parsed, what);
}

/** AGENT_MODEL_LIMITS: a JSON object of limits by model name. */
export function readModelLimits(value: string | undefined, what = 'AGENT_MODEL_LIMITS'): Record<string, ModelLimits> | undefined {
  return readJsonSetting(value, what, '{"gpt-4o": {"requestsPerMinute": 500, "tokensPerMinute": 30000}}', checkedModelLimits);
}

export function checkedModelLimits(value: unknown, what = 'modelLimits'): Record<string, ModelLimits> {
  const problem = modelLimitsProblem(what, value);
  if (problem) throw new WorkerConfigurationError(`${problem}.`);
  return value as Record<string, ModelLimits>;
}

/** AGENT_APPROVAL_POLICY: one policy as JSON, e.g. {"kind":"cedar","name":"refunds","version":"3","file":"policies/refunds.cedar"}. */
export function readApprovalPolicy(value: string | undefined, what = 'AGENT_APPROVAL_POLICY'): PolicySpec | undefined {
  return readJsonSetting(value, what, '{"kind": "cedar", "name": "refunds", "version": "3", "file": "policies/refunds.cedar"}', checkedApprovalPolicy);
}

export function checkedApprovalPolicy(value: unknown, what = 'approvalPolicy'): PolicySpec {
  try {
    return parsePolicySpec(what, value);
  } catch (error) {
    throw new WorkerConfigurationError((error as Error).message);
  }
}

/** AGENT_USER_BUDGETS: a JSON object of budgets by user id (`*` for any user). */
export function readUserBudgets(value: string | undefined, what = 'AGENT_USER_BUDGETS'): Record<string, Budget> | undefined {
  return readJsonSetting(value, what, '{"*": {"cost": 5}, "alice": {"tokens": 1000000}}', checkedUserBudgets);
}

export function checkedUserBudgets(value: unknown, what = 'userBudgets'): Record<string, Budget> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new WorkerConfigurationError(`${what} must be an object of budgets by user id ("*" for any user).`);
  const problems = Object.entries(value).flatMap(([user, budget]) => budgetProblem(`${what}[${JSON.stringify(user)}]`, budget) ?? []);
  if (problems.length > 0) throw new WorkerConfigurationError(`${problems.join('; ')}.`);
  return value as Record<string, Budget>;
}

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerEnvConfig {
  const workspace = env.AGENT_WORKSPACE || 'workspace';
  return {
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    defaultModel: env.AGENT_MODEL || DEFAULT_MODEL,
    toolsConfigPath: env.AGENT_TOOLS_CONFIG || `${workspace}/tools.json`,
    workspace,
    maxCachedRuns: readMaxCachedRuns(env.AGENT_MAX_CACHED_RUNS),
    live: readLiveSettings(env.AGENT_LIVE_ADDRESS, env.AGENT_LIVE_URL),
    ...definedOnly({ userBudgets: readUserBudgets(env.AGENT_USER_BUDGETS), modelLimits: readModelLimits(env.AGENT_MODEL_LIMITS), approvalPolicy: readApprovalPolicy(env.AGENT_APPROVAL_POLICY) }),
    ...definedOnly({ nexusService: env.AGENT_NEXUS_SERVICE?.trim() || undefined }),
    textToolCallModels: modelList(env.AGENT_TEXT_TOOL_CALLS),
    constrainedCallModels: modelList(env.AGENT_CONSTRAINED_CALLS),
  };
}

function modelList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
}
