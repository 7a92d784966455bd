/**
 * What a streaming model call writes as it is written: pieces of its text and of its tool calls.
 * They go to the worker's live endpoint (src/worker/live-endpoint.ts), never into the run's history.
 */
export type LiveDelta =
  | { type: 'text'; text: string }
  /** A piece of the tool call at `index` in the reply: its id and name when the model first sends them, then its arguments. */
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments: string };
