import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * An A2A task is a run: its id is the run's workflow id, `a2a~<agent>~<context>~<random>`. The
 * agent and the context are in the id so that any server process answers for any task without
 * state of its own (nothing to lose in a restart): the agent endpoint a task belongs to, and the
 * context it was started in, are read from its id. `~` is in neither an agent name nor a context id.
 */
const SEPARATOR = '~';
const PREFIX = `a2a${SEPARATOR}`;

/** A context id a client may give (A2A lets clients name contexts): what fits in a workflow id and stays readable. */
export const contextIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/, "a contextId is 1-100 letters, digits, '_', '.', ':' or '-'");

export interface TaskIdParts {
  agent: string;
  contextId: string;
}

export function newContextId(): string {
  return `ctx-${randomBytes(6).toString('hex')}`;
}

export function newTaskId(agent: string, contextId: string): string {
  return `${PREFIX}${agent}${SEPARATOR}${contextId}${SEPARATOR}${randomBytes(5).toString('hex')}`;
}

/** The agent and context of a task id this server made; undefined for any other id. */
export function taskIdParts(taskId: string): TaskIdParts | undefined {
  if (!taskId.startsWith(PREFIX)) return undefined;
  const [agent, contextId, random, ...rest] = taskId.slice(PREFIX.length).split(SEPARATOR);
  if (!agent || !contextId || !random || rest.length > 0) return undefined;
  return { agent, contextId };
}

/** The visibility filter of an agent's A2A tasks in one context (agent names and context ids hold no quote). */
export function contextTasksQuery(agent: string, contextId: string): string {
  return `WorkflowId STARTS_WITH '${PREFIX}${agent}${SEPARATOR}${contextId}${SEPARATOR}'`;
}
