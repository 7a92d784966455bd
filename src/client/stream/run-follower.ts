import type { WorkflowClient, WorkflowHandle } from '@temporalio/client';
import { eventsQuery, stateQuery } from '../../common/definitions';
import type { AgentEvent } from '../../common/events';
import type { LiveDelta } from '../../common/contracts/live-deltas';
import type { AgentRunResult } from '../../common/run';
import { isPayloadDecryptionError } from '../../codec/payload-decryption-error';
import { readModelCall } from './model-call-heartbeat';
import { describeExecution } from '../run-execution';
import { readLiveDeltas } from './live-delta-reader';
import type { RunPosition, StreamCursor, StreamItem, StreamWaitingCall } from './stream-items';
import { readWhenWorkerFree } from '../read-when-worker-free';

type WithoutCursor<T> = T extends unknown ? Omit<T, 'cursor'> : never;
export type UncursoredItem = WithoutCursor<StreamItem>;

export interface FollowContext {
  client: WorkflowClient;
  /** The stream's position in every run it follows; followers move it, each item carries it. */
  cursor: StreamCursor;
  emit(item: UncursoredItem): void;
  /** Ends the whole stream with this error (a delta no key decodes, a query that fails for good). */
  fail(error: unknown): void;
  signal: AbortSignal;
  /** Between reads of the events query. */
  eventsPollMs: number;
  /** Between reads of a model call's heartbeat, while one is in flight and its deltas are not being read. */
  callPollMs: number;
  /** Whether sub-agent runs are followed (their items nested); without, only their parent's events about them. */
  subAgents: boolean;
  /** Whether model calls' text and tool-call deltas are read; without, only events (no heartbeat is read). */
  deltas: boolean;
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'max_iterations', 'budget_exhausted', 'cancelled']);
/** How long an event that ends a model call waits for the rest of that call's deltas. */
const DRAIN_MS = 3_000;
/** How long a sub-agent's end waits for the sub-agent's own stream to reach it. */
const CHILD_DRAIN_MS = 30_000;
/** Describe is read this many event polls apart, to notice a run that closed without a final event. */
const CLOSED_CHECK_EVERY = 4;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

const within = (promise: Promise<unknown>, ms: number, signal: AbortSignal) => Promise.race([promise.then(() => undefined), sleep(ms, signal)]);

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

function endsRun(event: AgentEvent): boolean {
  return (event.type === 'run_finished' && FINAL_STATUSES.has(event.status)) || event.type === 'conversation_ended';
}

/**
 * Follows one run for a stream: its events by the `events` query (sequence numbers carry over
 * continue-as-new), the deltas of its streaming model calls from the live endpoint of the worker
 * that makes them (found in the call's heartbeat), and its sub-agent runs, nested. Nothing it does
 * adds to any run's history.
 */
export class RunFollower {
  private readonly handle: WorkflowHandle;
  private readonly children = new Map<string, Promise<void>>();
  /** Set between a model call's start event and its end: deltas are read and given only then. */
  private modelCalling: boolean;
  /**
   * A call found (by its heartbeat) before the events query showed it start: its deltas are read
   * into here and given right after its `model_call_started`, so the first text does not wait for
   * the next events poll.
   */
  private early: { iteration: number; attempt: number; url: string; deltas: [number, LiveDelta][] } | undefined;
  /** The last iteration whose `model_call_finished` was given: a call of it is no longer read ahead. */
  private finishedIteration = 0;
  /** Calls waiting for a person: while some do and no model call runs, heartbeats are not read. */
  private openWaits = 0;
  private reading: { iteration: number; ended: Promise<void> } | undefined;
  /** The call whose deltas were read to their end, as `iteration:attempt`. */
  private wholeCall: string | undefined;
  private readUrl: string | undefined;
  private endedUrl: string | undefined;
  /** The last quota wait told, so each is told once. */
  private quotaNote: string | undefined;
  private done = false;
  /** The run's result, awaited once (a long poll): an events poll does not sleep past the run's close. */
  private outcome: Promise<AgentRunResult | undefined> | undefined;
  /** The run's state read for the events of one poll: calls that ended in it share one query. */
  private stateOfPoll: ReturnType<RunFollower['readState']> | undefined;

  constructor(
    private readonly ctx: FollowContext,
    private readonly workflowId: string,
    private readonly depth: number,
  ) {
    this.handle = ctx.client.getHandle(workflowId);
    this.modelCalling = this.position.c !== undefined;
  }

  private get position(): RunPosition {
    return this.ctx.cursor[this.workflowId]!;
  }

  async run(): Promise<void> {
    for (const [id, position] of Object.entries(this.ctx.cursor)) {
      if (this.ctx.subAgents && position.d === this.depth + 1 && id.startsWith(`${this.workflowId}/`)) this.followChild(id);
    }
    const calls = this.ctx.deltas ? this.watchModelCalls().catch((error: unknown) => this.ctx.fail(error)) : undefined;
    try {
      await this.followEvents();
    } finally {
      this.done = true;
    }
    await calls;
    await Promise.all(this.children.values());
  }

  private async followEvents(): Promise<void> {
    for (let polls = 1; !this.ctx.signal.aborted; polls++) {
      let batch: AgentEvent[] = [];
      try {
        batch = await readWhenWorkerFree(() => this.handle.query(eventsQuery, this.position.s));
      } catch (error) {
        // A run that has closed may have no worker left to answer ("no poller seen"); one this client cannot decrypt is an error whatever its state.
        if (!isPayloadDecryptionError(error) && (await this.closed())) return;
        throw error;
      }
      this.stateOfPoll = undefined;
      for (const event of batch) {
        if (this.ctx.signal.aborted) return;
        await this.give(event);
        if (endsRun(event)) return;
      }
      if (batch.length === 0 && polls % CLOSED_CHECK_EVERY === 0 && (await this.closed())) return;
      await Promise.race([sleep(this.ctx.eventsPollMs, this.ctx.signal), this.result()]);
    }
  }

  private result(): Promise<AgentRunResult | undefined> {
    // Aborted with the stream: a stream left at a wait must not hold a long poll until the run ends.
    this.outcome ??= this.ctx.client.withAbortSignal(this.ctx.signal, () => this.handle.result() as Promise<AgentRunResult>).catch(() => undefined);
    return this.outcome;
  }

  private readState() {
    return this.handle.query(stateQuery).catch(() => undefined);
  }

  private async give(event: AgentEvent): Promise<void> {
    if (event.type === 'model_call_finished' || event.type === 'model_call_interrupted') {
      // The call's text comes before the event that ends it.
      if (this.reading?.iteration === event.iteration) await within(this.reading.ended, DRAIN_MS, this.ctx.signal);
      this.modelCalling = false;
      this.finishedIteration = Math.max(this.finishedIteration, event.iteration);
      if (event.type === 'model_call_finished' && this.ctx.deltas) await this.giveRestOfText(event.iteration, event.text);
      delete this.position.c;
    }
    if (event.type === 'subagent_finished') {
      const child = this.children.get(event.workflowId);
      if (child) await within(child, CHILD_DRAIN_MS, this.ctx.signal);
      this.children.delete(event.workflowId);
      for (const id of Object.keys(this.ctx.cursor)) if (id === event.workflowId || id.startsWith(`${event.workflowId}/`)) delete this.ctx.cursor[id];
    }
    const extras = await this.extrasOf(event);
    this.position.s = event.seq;
    if (event.type === 'model_call_started') {
      // Attempt 0: not known until the call's first heartbeat.
      this.position.c = [event.iteration, 0, 0, 0];
    }
    if (event.type === 'subagent_started' && this.ctx.subAgents && !this.ctx.cursor[event.workflowId]) this.ctx.cursor[event.workflowId] = { s: 0, d: this.depth + 1 };
    this.ctx.emit({ type: 'event', workflowId: this.workflowId, depth: this.depth, event, ...extras });
    if (event.type === 'model_call_started') {
      this.modelCalling = true;
      this.giveEarlyDeltas(event.iteration);
    }
    if (event.type === 'permission_requested' || event.type === 'external_requested') this.openWaits++;
    if (event.type === 'permission_decided' || event.type === 'external_submitted') this.openWaits = Math.max(0, this.openWaits - 1);
    if (event.type === 'subagent_started' && this.ctx.subAgents && !this.children.has(event.workflowId)) this.followChild(event.workflowId);
  }

  private async extrasOf(event: AgentEvent): Promise<{ waiting?: StreamWaitingCall; result?: AgentRunResult }> {
    if (event.type === 'permission_requested' || event.type === 'external_requested') {
      const waiting = await this.waitingCall(event.callId);
      return waiting ? { waiting } : {};
    }
    if (this.depth === 0 && endsRun(event)) {
      const result = await this.result();
      return result ? { result } : {};
    }
    return {};
  }

  /**
   * A call that ended before its deltas could all be read (it was quicker than a poll, or its
   * worker's endpoint is off): the rest of its text, from the reply the run recorded.
   */
  private async giveRestOfText(iteration: number, preview: string): Promise<void> {
    const position = this.position.c;
    if (!position || position[0] !== iteration || this.wholeCall === `${position[0]}:${position[1]}`) return;
    this.stateOfPoll ??= this.readState();
    const state = await this.stateOfPoll;
    const given = position[3];
    const replies = (state?.messages ?? []).filter((message) => message.role === 'assistant');
    // The event's text is the reply's start, its white space folded: it tells this call's reply from a later one's.
    const start = flat(preview).replace(/…$/, '');
    const reply = replies.reverse().find((message) => (message.content ?? '').length >= given && flat(message.content ?? '').startsWith(start));
    const text = reply?.content ?? '';
    if (text.length <= given) return;
    position[3] = text.length;
    this.ctx.emit({ type: 'text_delta', workflowId: this.workflowId, depth: this.depth, iteration, attempt: Math.max(1, position[1]), text: text.slice(given) });
  }

  /** The call as the run's state shows it while it waits (with its tool's schema); undefined once answered. */
  private async waitingCall(callId: string): Promise<StreamWaitingCall | undefined> {
    const state = await this.handle.query(stateQuery).catch(() => undefined);
    const call = state?.pending.find((pending) => pending.callId === callId && pending.workflowId === undefined);
    if (!call) return undefined;
    return {
      kind: call.kind,
      callId: call.callId,
      tool: call.tool,
      input: call.input,
      ...(call.schema ? { schema: call.schema } : {}),
      ...(call.decision?.reason ? { reason: call.decision.reason } : {}),
      since: call.since,
      workflowId: this.workflowId,
    };
  }

  private followChild(workflowId: string): void {
    const child = new RunFollower(this.ctx, workflowId, this.depth + 1);
    this.children.set(
      workflowId,
      child.run().catch((error: unknown) => this.ctx.fail(error)),
    );
  }

  private async closed(): Promise<boolean> {
    const { status } = await describeExecution(this.handle).catch(() => ({ status: 'RUNNING' }));
    return status !== 'RUNNING' && status !== 'CONTINUED_AS_NEW';
  }

  /**
   * While a model call is in flight: finds its attempt's live endpoint in its heartbeat and reads
   * its deltas from where the stream is; a new attempt (its worker died) or a new call in the same
   * iteration is announced and read from its start. Without a live endpoint, the heartbeat's text.
   */
  private async watchModelCalls(): Promise<void> {
    while (!this.done && !this.ctx.signal.aborted) {
      if (!this.modelCalling && this.openWaits > 0) {
        await sleep(this.ctx.callPollMs, this.ctx.signal);
        continue;
      }
      const call = await readModelCall(this.handle).catch(() => undefined);
      if (call?.quota !== undefined && call.quota !== this.quotaNote) {
        this.quotaNote = call.quota;
        this.ctx.emit({ type: 'model_quota_wait', workflowId: this.workflowId, depth: this.depth, iteration: call.iteration, text: call.quota });
      }
      if (!call || call.live === this.endedUrl) {
        await sleep(this.ctx.callPollMs, this.ctx.signal);
        continue;
      }
      if (!this.modelCalling) {
        if (call.live && call.iteration > this.finishedIteration) {
          this.early = { iteration: call.iteration, attempt: call.attempt, url: call.live, deltas: [] };
          await this.readDeltas(call.live, call.iteration, call.attempt, 0);
        }
        await sleep(this.ctx.callPollMs, this.ctx.signal);
        continue;
      }
      const position = this.position.c;
      // A call of a later iteration than the events have reached waits for them to reach it.
      if (!position || call.iteration !== position[0]) {
        await sleep(this.ctx.callPollMs, this.ctx.signal);
        continue;
      }
      const [iteration, attempt] = position;
      const seen = attempt !== 0;
      const sameCall = attempt === call.attempt && (this.readUrl === undefined || this.readUrl === call.live);
      if (!sameCall) {
        this.position.c = [call.iteration, call.attempt, 0, 0];
        if (seen) this.ctx.emit({ type: 'model_call_restarted', workflowId: this.workflowId, depth: this.depth, iteration, attempt: call.attempt });
      } else if (!seen) {
        position[1] = call.attempt;
      }
      this.readUrl = call.live;
      if (call.live) await this.readDeltas(call.live, call.iteration, call.attempt, this.position.c?.[2] ?? 0);
      else this.giveHeartbeatText(call.text, call.iteration, call.attempt);
      await sleep(this.ctx.callPollMs, this.ctx.signal);
    }
  }

  /** The deltas read ahead of the call's start event, given now that it was. */
  private giveEarlyDeltas(iteration: number): void {
    const early = this.early;
    const position = this.position.c;
    if (!early || !position || early.iteration !== iteration) return;
    this.early = undefined;
    position[1] = early.attempt;
    this.readUrl = early.url;
    for (const [index, delta] of early.deltas) this.giveDelta(index, delta, early.iteration, early.attempt);
  }

  private async readDeltas(url: string, iteration: number, attempt: number, from: number): Promise<void> {
    let finish!: () => void;
    this.reading = { iteration, ended: new Promise<void>((resolve) => (finish = resolve)) };
    try {
      const end = await readLiveDeltas(
        url,
        from,
        this.ctx.client,
        (index, delta) => this.giveDelta(index, delta, iteration, attempt),
        this.ctx.signal,
      );
      if (end === 'ended') {
        this.endedUrl = url;
        this.wholeCall = `${iteration}:${attempt}`;
      }
    } finally {
      this.reading = undefined;
      finish();
    }
  }

  private giveDelta(index: number, delta: LiveDelta, iteration: number, attempt: number): void {
    const early = this.early;
    if (!this.modelCalling && early?.iteration === iteration && early.attempt === attempt) {
      early.deltas.push([index, delta]);
      return;
    }
    const position = this.position.c;
    if (!this.modelCalling || !position || position[0] !== iteration || position[1] !== attempt || index < position[2]) return;
    position[2] = index + 1;
    const from = { workflowId: this.workflowId, depth: this.depth, iteration, attempt };
    if (delta.type === 'text') {
      position[3] += delta.text.length;
      this.ctx.emit({ type: 'text_delta', ...from, text: delta.text });
    } else {
      const { type: _type, ...piece } = delta;
      this.ctx.emit({ type: 'tool_call_delta', ...from, ...piece });
    }
  }

  /** A worker without a live endpoint: the text its heartbeats report, as the part not given yet. */
  private giveHeartbeatText(text: string, iteration: number, attempt: number): void {
    const position = this.position.c;
    if (!position || text.length <= position[3]) return;
    const added = text.slice(position[3]);
    position[3] = text.length;
    this.ctx.emit({ type: 'text_delta', workflowId: this.workflowId, depth: this.depth, iteration, attempt, text: added });
  }
}
