import type { WorkflowClient } from '@temporalio/client';
import { AsyncChannel } from './async-channel';
import { RunFollower } from './run-follower';
import { decodeCursor, encodeCursor, type StreamCursor, type StreamItem } from './stream-items';

export interface StreamOptions {
  /** A cursor from an item of an earlier stream of this run: the stream goes on after that item. */
  from?: string;
  /** Without `from`: start after this event of the run followed (its `seq`), with no deltas before it. */
  afterSeq?: number;
  signal?: AbortSignal;
  /** Between reads of the events query. Default 250 ms. */
  eventsPollMs?: number;
  /** Between reads of a model call's heartbeat while its deltas are not being read. Default 100 ms. */
  callPollMs?: number;
}

/**
 * What a stream follows besides the run's own events (both by default). Not part of `stream()`'s
 * options: `AgentRun.updates()` and `events()` narrow the stream with it, so that following
 * events alone reads no heartbeat and follows no sub-agent.
 */
export interface StreamScope {
  subAgents?: boolean;
  deltas?: boolean;
}

/**
 * The run's stream: its durable events, its model calls' text and tool-call deltas as they are
 * written, and its sub-agents' streams nested, from the start or from a cursor, until the run ends.
 * Throws InvalidCursorError (at once) for a cursor of another run or none at all.
 */
export function streamRun(client: WorkflowClient, workflowId: string, options: StreamOptions = {}, scope: StreamScope = {}): AsyncGenerator<StreamItem> {
  const cursor: StreamCursor = options.from ? decodeCursor(options.from, workflowId) : { [workflowId]: { s: Math.max(0, Math.floor(options.afterSeq ?? 0)), d: 0 } };
  return follow(client, workflowId, cursor, options, scope);
}

async function* follow(client: WorkflowClient, workflowId: string, cursor: StreamCursor, options: StreamOptions, scope: StreamScope): AsyncGenerator<StreamItem> {
  const channel = new AsyncChannel<StreamItem>();
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const root = new RunFollower(
    {
      client,
      cursor,
      emit: (item) => channel.push({ ...item, cursor: encodeCursor(cursor) } as StreamItem),
      fail: (error) => {
        channel.fail(error);
        stop.abort();
      },
      signal,
      eventsPollMs: options.eventsPollMs ?? 250,
      callPollMs: options.callPollMs ?? 100,
      subAgents: scope.subAgents !== false,
      deltas: scope.deltas !== false,
    },
    workflowId,
    0,
  );
  root.run().then(
    () => channel.close(),
    (error: unknown) => channel.fail(error),
  );
  signal.addEventListener('abort', () => channel.close(), { once: true });
  try {
    yield* channel.drain();
  } finally {
    stop.abort();
  }
}
