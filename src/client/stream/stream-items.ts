import { z } from 'zod';
import type { AgentEvent } from '../../common/events';
import type { AgentRunResult } from '../../common/run';
import type { JsonSchema } from '../../common/tools';

/** Where an item comes from: the run followed (depth 0) or one of its sub-agent runs, at any depth. */
interface ItemBase {
  workflowId: string;
  depth: number;
  /** Give it to `stream({ from })` (or as Last-Event-ID) to go on after this item. */
  cursor: string;
}

/** A call that waits for a person, with what an app needs to show and answer it in place. */
export interface StreamWaitingCall {
  kind: 'approval' | 'external';
  callId: string;
  tool: string;
  input: unknown;
  /** The JSON Schema of the tool's input, as the run recorded it (for a form). */
  schema?: JsonSchema;
  /** Why the permission engine asked. */
  reason?: string;
  since: string;
  /** The run that holds the call: approve, deny or submit there (`client.get(workflowId)`). */
  workflowId: string;
}

export type StreamItem =
  | (ItemBase & {
      type: 'event';
      event: AgentEvent;
      /** With `permission_requested` and `external_requested` while the call still waits. */
      waiting?: StreamWaitingCall;
      /** With the `run_finished` that ends the run followed. */
      result?: AgentRunResult;
    })
  | (ItemBase & { type: 'text_delta'; iteration: number; attempt: number; text: string })
  | (ItemBase & { type: 'tool_call_delta'; iteration: number; attempt: number; index: number; id?: string; name?: string; arguments: string })
  /** The model call was made again (its worker died, or added input interrupted it): its text and tool calls start over. */
  | (ItemBase & { type: 'model_call_restarted'; iteration: number; attempt: number })
  /** The model call waits for its model's fleet-wide quota (the worker's `modelLimits`): what it waits for, told again as that changes. */
  | (ItemBase & { type: 'model_quota_wait'; iteration: number; text: string });

/** How far a stream has gone in one run: its events, and the deltas of its model call in flight. */
const runPositionSchema = z.object({
  /** The last event given (its `seq`). */
  s: z.number().int().min(0),
  /** Depth below the run followed. */
  d: z.number().int().min(0),
  /** The model call in flight: iteration, attempt (0 before its first heartbeat), deltas given, text characters given. */
  c: z.tuple([z.number().int().min(0), z.number().int().min(0), z.number().int().min(0), z.number().int().min(0)]).optional(),
});

const cursorSchema = z.record(z.string().min(1).max(1_000), runPositionSchema).refine((runs) => Object.keys(runs).length <= 200, 'too many runs');

export type RunPosition = z.infer<typeof runPositionSchema>;
export type StreamCursor = Record<string, RunPosition>;

/** A cursor that is not one a stream of this run gave. */
export class InvalidCursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCursorError';
  }
}

export function encodeCursor(cursor: StreamCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** Reads a cursor given for `workflowId`: the run followed must be in it, at depth 0. */
export function decodeCursor(text: string, workflowId: string): StreamCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError(`'${text.slice(0, 40)}' is not a stream cursor: give the cursor of an item the stream gave.`);
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success) throw new InvalidCursorError(`'${text.slice(0, 40)}' is not a stream cursor: give the cursor of an item the stream gave.`);
  const own = result.data[workflowId];
  if (own?.d !== 0) throw new InvalidCursorError(`The cursor is not one of a stream of run ${workflowId}.`);
  for (const id of Object.keys(result.data)) {
    if (id !== workflowId && !id.startsWith(`${workflowId}/`)) throw new InvalidCursorError(`The cursor names run ${id}, which is not a sub-agent of ${workflowId}.`);
  }
  return result.data;
}
