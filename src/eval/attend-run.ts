import type { AgentEventType } from '../common/events';
import type { AgentRun } from '../client/agent-run';
import type { WaitAnswerer } from './answer-waits';
import { waitAtMost } from './wait-at-most';

/** Events after which the run (or one of its sub-agents) may wait on a call. */
const WAITS: ReadonlySet<AgentEventType> = new Set(['permission_requested', 'external_requested', 'subagent_waiting', 'budget_reached']);

export type Attended<T> = { settled: T } | { failed: unknown } | { problem: string };

export interface AttendOptions {
  /** When the case's run started (ms), and how long it may take. */
  startedAt: number;
  timeoutMs: number;
  pollMs: number;
  /** Events up to this sequence number were seen before. */
  afterSeq: number;
  /** The eval was stopped: attending ends. */
  signal?: AbortSignal;
}

/**
 * Waits for `settled` (the run's result, a turn's answer) while answering the calls the run waits
 * on. Stops at the first call without an answer, or when the time is up, with the problem.
 */
export async function attendRun<T>(run: AgentRun, settled: Promise<T>, answerer: WaitAnswerer, options: AttendOptions): Promise<{ outcome: Attended<T>; seq: number }> {
  let done: Attended<T> | undefined;
  const finished = settled.then(
    (value) => (done = { settled: value }),
    (error: unknown) => (done = { failed: error }),
  );
  let seq = options.afterSeq;
  for (;;) {
    if (done) return { outcome: done, seq };
    if (options.signal?.aborted) return { outcome: { problem: 'the eval was stopped' }, seq };
    const events = await run.eventsAfter(seq).catch(() => []);
    if (events.length > 0) seq = events[events.length - 1]!.seq;
    if (events.some((event) => WAITS.has(event.type))) {
      const problem = await answerer.answerPending(run).catch((error: unknown) => `the run's waiting calls could not be read: ${(error as Error).message}`);
      if (problem && !done) return { outcome: { problem }, seq };
    }
    if (!done && Date.now() - options.startedAt > options.timeoutMs) {
      return { outcome: { problem: `the run did not finish within ${Math.round(options.timeoutMs / 1000)} s (--timeout)` }, seq };
    }
    await waitAtMost(finished, options.pollMs);
  }
}
