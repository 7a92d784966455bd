import { HandlerError } from 'nexus-rpc';
import { z } from 'zod';
import { budgetSchema, type Budget } from '../common/budget';
import type { RuntimeContext } from '../common/runtime';
import type { StartOptions } from '../client/start-request';

/** What a caller sends to start a run of an agent through Nexus. */
export interface AgentOperationInput {
  prompt: string;
  /** The user the run is for: its tools see it, its fairness key and user budget follow it. */
  userId?: string;
  /** More runtime context for the agent's tools (never shown to the model). */
  runtime?: RuntimeContext;
  /** What the run may spend (with the agent's budget, each limit is the smaller). */
  budget?: Budget;
  maxIters?: number;
  /** The run's workflow id; `<agent>-<random>` by default. A second start with the same id is refused. */
  id?: string;
}

/** Built on use, like the project's other boundary schemas. */
function operationInputSchema() {
  return z
    .object({
      prompt: z.string({ required_error: 'prompt is required', invalid_type_error: 'prompt must be a string' }).refine((prompt) => prompt.trim() !== '', 'prompt must not be empty'),
      userId: z.string({ invalid_type_error: 'userId must be a string' }).min(1, 'userId must not be empty').optional(),
      runtime: z.record(z.unknown(), { invalid_type_error: 'runtime must be an object' }).optional(),
      budget: budgetSchema().optional(),
      maxIters: z.number({ invalid_type_error: 'maxIters must be a number' }).int('maxIters must be a whole number').positive('maxIters must be at least 1').optional(),
      id: z.string({ invalid_type_error: 'id must be a string' }).min(1, 'id must not be empty').max(1000, 'id must be at most 1000 characters').optional(),
    })
    .strict();
}

/** The issue's message, led by the field it is about unless it names it already (the budget's do). */
function problemOf(path: readonly (string | number)[], message: string): string {
  const field = path.length > 0 ? path.join('.') : 'input';
  return message.startsWith(field) ? message : `${field}: ${message}`;
}

/**
 * The caller's input as start options, or a BAD_REQUEST handler error naming each field that is
 * wrong: the caller's operation fails at once (not retried) and no run starts.
 */
export function parseOperationInput(agent: string, input: unknown): StartOptions {
  const parsed = operationInputSchema().safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}` : problemOf(issue.path, issue.message),
    );
    throw new HandlerError('BAD_REQUEST', `Invalid input for agent '${agent}': ${problems.join('; ')}.`);
  }
  const { prompt, userId, runtime, budget, maxIters, id } = parsed.data;
  return {
    prompt,
    ...(userId !== undefined ? { userId } : {}),
    ...(runtime !== undefined ? { runtime } : {}),
    ...(budget !== undefined ? { budget: budget as Budget } : {}),
    ...(maxIters !== undefined ? { maxIters } : {}),
    ...(id !== undefined ? { id } : {}),
  };
}
