import { randomBytes } from 'node:crypto';
import type { LiveDelta } from '../common/contracts/live-deltas';

/** A reader of one call's deltas: each one with its position, then the end. */
export interface LiveListener {
  delta(position: number, delta: LiveDelta): void;
  end(): void;
}

interface LiveCall {
  deltas: LiveDelta[];
  endedAt?: number;
  listeners: Set<LiveListener>;
}

/** What a streaming model call writes to. */
export interface LiveCallWriter {
  /** The call's unguessable path on the live endpoint. */
  readonly path: string;
  push(delta: LiveDelta): void;
  end(): void;
}

/** A reader that came after the call ended still gets its deltas for this long (a reload, a reconnect). */
const KEEP_ENDED_MS = 120_000;
/** Bounds the memory of a worker whose calls nobody reads: the oldest ended calls go first. */
const MAX_CALLS = 2_000;

/**
 * The deltas of this worker's streaming model calls, in memory, for the live endpoint. A call is
 * kept while it runs and for two minutes after, so a client that reconnects reads from any position.
 */
export class LiveCalls {
  private readonly calls = new Map<string, LiveCall>();

  constructor(private readonly now: () => number = Date.now) {}

  open(): LiveCallWriter {
    this.prune();
    const path = randomBytes(24).toString('base64url');
    const call: LiveCall = { deltas: [], listeners: new Set() };
    this.calls.set(path, call);
    return {
      path,
      push: (delta) => {
        if (call.endedAt !== undefined) return;
        call.deltas.push(delta);
        for (const listener of call.listeners) listener.delta(call.deltas.length - 1, delta);
      },
      end: () => {
        if (call.endedAt !== undefined) return;
        call.endedAt = this.now();
        for (const listener of call.listeners) listener.end();
        call.listeners.clear();
      },
    };
  }

  /**
   * Sends the call's deltas from `from` on, then the new ones as they come, then its end. Returns
   * the function that stops listening, or undefined for a path this worker does not know.
   */
  follow(path: string, from: number, listener: LiveListener): (() => void) | undefined {
    const call = this.calls.get(path);
    if (!call) return undefined;
    for (let position = Math.max(0, from); position < call.deltas.length; position++) listener.delta(position, call.deltas[position]!);
    if (call.endedAt !== undefined) {
      listener.end();
      return () => undefined;
    }
    call.listeners.add(listener);
    return () => call.listeners.delete(listener);
  }

  /** Forgets calls that ended over two minutes ago (and the oldest ended ones beyond the bound). */
  prune(): void {
    const now = this.now();
    for (const [path, call] of this.calls) if (call.endedAt !== undefined && now - call.endedAt > KEEP_ENDED_MS) this.calls.delete(path);
    if (this.calls.size < MAX_CALLS) return;
    for (const [path, call] of this.calls) {
      if (this.calls.size < MAX_CALLS) break;
      if (call.endedAt !== undefined) this.calls.delete(path);
    }
  }
}
