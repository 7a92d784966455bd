import type { Duration } from '@temporalio/common';
import type { AnyZodObject, ZodTypeAny } from 'zod';
import type { PatternKind } from '../common/permissions';
import { checkToolName, type Tool, type ToolPermission } from './define-tool';
import { durationProblem } from '../common/duration';

/** A Nexus service or operation, by its name or by its definition (nexus-rpc's `service(...)`, `operation(...)`). */
export type NexusName = string | { readonly name?: string };

export interface NexusToolOptions<I extends AnyZodObject, O extends ZodTypeAny = ZodTypeAny> {
  name: string;
  description: string;
  /** The Nexus endpoint, as created in the caller's cluster (`temporal operator nexus endpoint create --name …`). */
  endpoint: string;
  /** The service behind the endpoint: its name, or its definition. */
  service: NexusName;
  /**
   * The operation: its name, or its definition. With the service's definition, an operation's
   * property name is looked up there (its `name` may differ).
   */
  operation: NexusName;
  /** What the model fills in (its JSON Schema is what the model sees); checked on the worker before the operation starts. */
  input: I;
  /**
   * The operation's result: checked on a worker that serves the agent (the workflow cannot run a
   * schema) before the model reads it; a result that does not fit is an error result naming what is wrong.
   */
  output?: O;
  /** 'allow' | 'ask' | 'deny' or a function of the input, as for defineTool; the agent's rules apply as to any tool. */
  permission?: ToolPermission;
  /** Reads only: allowed in explore and accept_edits modes, concurrency-safe by default. */
  readOnly?: boolean;
  concurrencySafe?: boolean;
  /** The input field that rule patterns like `tool(…)` match. */
  patternField?: string;
  patternKind?: PatternKind;
  /** The whole operation, the server's retries of its start included (schedule-to-close); '10 minutes' by default. */
  timeout?: Duration;
}

function nameOf(what: string, value: NexusName, where: string): string {
  const name = typeof value === 'string' ? value : value?.name;
  if (typeof name !== 'string' || name.trim() === '') throw new Error(`nexusTool '${where}': ${what} must be a name (a non-empty string) or a definition with one.`);
  return name;
}

/** The operation's wire name: a definition's `name`, else the property of the service's definition it is under, else the string given. */
function operationName(options: NexusToolOptions<AnyZodObject>): string {
  const { operation, service } = options;
  if (typeof operation !== 'string') return nameOf('operation', operation, options.name);
  const operations = typeof service === 'object' ? (service as { operations?: Record<string, { name?: string }> }).operations : undefined;
  return operations?.[operation]?.name ?? nameOf('operation', operation, options.name);
}

/**
 * A tool backed by another team's Nexus operation: the model sees it like any tool, the worker checks
 * its input and its permission (an `ask` waits for a person like any call), and the run's workflow
 * starts the operation through the endpoint (only workflow code may), which Temporal retries and
 * whose result (or failure) the model reads. See docs/nexus.md.
 */
export function nexusTool<I extends AnyZodObject, O extends ZodTypeAny = ZodTypeAny>(options: NexusToolOptions<I, O>): Tool<I> {
  checkToolName(options.name);
  const endpoint = nameOf('endpoint', options.endpoint, options.name);
  const service = nameOf('service', options.service, options.name);
  const operation = operationName(options as unknown as NexusToolOptions<AnyZodObject>);
  const problem = durationProblem('timeout', options.timeout);
  if (problem) throw new Error(`nexusTool '${options.name}': ${problem}.`);
  const readOnly = options.readOnly ?? false;
  return {
    kind: 'tool',
    source: 'code',
    name: options.name,
    description: options.description,
    input: options.input,
    readOnly,
    concurrencySafe: options.concurrencySafe ?? readOnly,
    ...(options.permission !== undefined ? { permission: options.permission } : {}),
    ...(options.patternField !== undefined ? { patternField: options.patternField } : {}),
    ...(options.patternKind !== undefined ? { patternKind: options.patternKind } : {}),
    nexus: { endpoint, service, operation, ...(options.timeout !== undefined ? { timeout: options.timeout } : {}), ...(options.output ? { checksOutput: true } : {}) },
    ...(options.output ? { nexusOutput: options.output } : {}),
  };
}
