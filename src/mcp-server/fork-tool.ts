import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentClient } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { ForkRefusedError } from '../client/fork/fork-point';
import { StartInputTooLargeError } from '../client/start-input-size';
import { MAX_NAME_CHARS } from '../common/boundary/limits';
import { MCP_RUN_PREFIX } from './run-task-store';

export const FORK_TOOL = 'fork_run';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

export const forkInput = z
  .object({
    runId: z.string().min(1).describe('The run to fork (its workflow id), as an agent tool or list_runs gave it'),
    at: z.number().int().min(0).describe('The event to fork after: its seq, as run_events gives it (0: before any event)'),
    message: text('message').optional().describe('A user message: in place of the last one when the fork point is right after it (an edit), else added'),
    model: text('model').max(MAX_NAME_CHARS, `model must be at most ${MAX_NAME_CHARS} characters`).optional().describe("The model the fork calls in place of the agent's"),
    instructions: text('instructions').optional().describe("The system message in place of the run's"),
  })
  .strict();

export type ForkArgs = z.infer<typeof forkInput>;

export const FORK_TOOL_DESCRIPTION =
  "Start a new run from a run's conversation as it stood after one of its events (its messages, the tool results obtained by then, " +
  'its spend, tool groups and session rules): nothing that ran before that point runs again, and the fork calls the model next. ' +
  'Answers like an agent tool, with the fork\'s answer (its runId in the structured content); the fork of a conversation is a ' +
  'conversation, answered at once with its id. A point or edit the run does not allow is refused, and nothing starts.';

/** A fork started, or why none was (the refusal, as the caller reads it). */
export type StartedFork = { run: AgentRun; conversation: boolean } | { refused: string };

/**
 * Starts the fork the arguments ask for. Its id starts as the MCP server's runs do, so tasks/list
 * finds it; a conversation's fork keeps the conversation's own naming (and, never ending as a
 * task does, is not made a task).
 */
export async function startForkRun(client: AgentClient, args: ForkArgs, asTask: boolean): Promise<StartedFork> {
  const parent = client.get(args.runId);
  try {
    const conversation = (await parent.execution()).raw.workflowExecutionInfo?.type?.name === 'conversationWorkflow';
    if (conversation && asTask) return { refused: `Not forked: ${args.runId} is a conversation, whose fork waits for its next message rather than ending as a task does. Call fork_run without a task.` };
    const run = await parent.fork({
      at: args.at,
      ...(args.message !== undefined ? { message: args.message } : {}),
      ...(args.model !== undefined ? { model: args.model } : {}),
      ...(args.instructions !== undefined ? { instructions: args.instructions } : {}),
      ...(conversation ? {} : { id: `${MCP_RUN_PREFIX}fork-${randomBytes(5).toString('hex')}` }),
    });
    return { run, conversation };
  } catch (error) {
    if (error instanceof ForkRefusedError) return { refused: `Not forked: ${error.message}. Nothing was started.` };
    if (error instanceof WorkflowNotFoundError) return { refused: `No run '${args.runId}' was found.` };
    if (error instanceof StartInputTooLargeError) return { refused: error.message };
    throw error;
  }
}

/** What a fork's tool call says besides the fork's own answer: which run it is a fork of, and of which event. */
export function withForkNote(result: CallToolResult, run: AgentRun, args: ForkArgs): CallToolResult {
  return {
    ...result,
    content: [...result.content, { type: 'text', text: `Fork ${run.workflowId} of ${args.runId} after event ${args.at}.` }],
    ...(result.structuredContent ? { structuredContent: { ...result.structuredContent, forkOf: args.runId, at: args.at } } : {}),
  };
}

/** A conversation's fork: its id at once (it answers its message, then waits for the next). */
export function conversationForkResult(run: AgentRun, args: ForkArgs): CallToolResult {
  return {
    content: [{ type: 'text', text: `Forked ${args.runId} after event ${args.at}: conversation ${run.workflowId}. Read its answer with run_events or run_state.` }],
    structuredContent: { runId: run.workflowId, forkOf: args.runId, at: args.at, conversation: true },
  };
}
