import type { ServerResponse } from 'node:http';
import { EventStream } from '../http';

/** What one poll found: the keys of the calls on the list's first page, and which watched calls still wait. */
export interface LiveReading {
  firstPage: string[];
  waiting: ReadonlySet<string>;
}

interface Listener {
  stream: EventStream;
  /** The call an item page follows; none for a list page. */
  watch?: string;
  /** Whether the watched call was seen waiting (only then can it stop). */
  seen?: boolean;
}

/** How long one poll's reading is trusted: the fastest spacing, and the slowest it grows to while nothing changes. */
export interface PollSpacing {
  fastMs: number;
  idleMs: number;
}

/**
 * The wait before the next poll: the fastest right after a change (or a page opening), twice the
 * last wait after a poll that found nothing new, up to `idleMs`. An open page costs the server a
 * visibility read each poll (at 10,000 waiting runs about 0.05 CPU-seconds a second when read every
 * second), and a list that has not moved for a while rarely moves in the next second.
 */
export function nextPollDelay(lastMs: number | undefined, changed: boolean, spacing: PollSpacing): number {
  if (changed || lastMs === undefined) return spacing.fastMs;
  return Math.min(spacing.idleMs, lastMs * 2);
}

/**
 * Server-sent events for every open page, from one poll shared by all of them. A list page gets
 * `waiting` (the keys of the first page's calls) whenever they change; an item page gets `gone`
 * once the call it follows stops waiting. The poll reads visibility only: the first page of what
 * waits while a list page listens, and the runs of the watched calls while an item page does. While
 * only list pages listen, polls space out as long as nothing changes (`nextPollDelay`); a page that
 * opens is answered by a poll at once. It stops while no page listens.
 */
export class LiveUpdates {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private delayMs: number | undefined;
  /** The data of the last `waiting` event, sent at once to a list page that opens. */
  private last = '';
  private polling = false;

  constructor(
    private readonly read: (options: { firstPage: boolean; watched: string[] }) => Promise<LiveReading>,
    private readonly spacing: PollSpacing,
  ) {}

  listen(response: ServerResponse, watch?: string): void {
    const stream = new EventStream(response, { cacheControl: 'no-store', retryMs: 2000 });
    const listener: Listener = { stream, ...(watch ? { watch } : {}) };
    this.listeners.add(listener);
    response.on('close', () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    });
    if (!watch && this.last) void stream.send({ event: 'waiting', data: this.last });
    this.delayMs = undefined;
    void this.poll();
  }

  private schedule(changed: boolean): void {
    if (this.listeners.size === 0) return;
    // An item page waits to hear at once that its call was answered elsewhere, and its read is by run id:
    // cheap. Only the list's first page, which orders every waiting run, is worth spacing out.
    const itemPageOpen = [...this.listeners].some((listener) => listener.watch);
    this.delayMs = nextPollDelay(this.delayMs, changed || itemPageOpen, this.spacing);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), this.delayMs);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    let changed = false;
    try {
      const all = [...this.listeners];
      const watched = [...new Set(all.flatMap((listener) => (listener.watch ? [listener.watch] : [])))];
      const reading = await this.read({ firstPage: all.some((listener) => !listener.watch), watched });
      const data = JSON.stringify({ keys: [...reading.firstPage].sort() });
      if (data !== this.last) {
        changed = true;
        this.last = data;
        for (const listener of all) if (!listener.watch) void listener.stream.send({ event: 'waiting', data });
      }
      for (const listener of all) {
        if (!listener.watch) continue;
        if (reading.waiting.has(listener.watch)) listener.seen = true;
        else if (listener.seen) {
          void listener.stream.send({ event: 'gone', data: JSON.stringify({ key: listener.watch }) });
          listener.seen = false;
          changed = true;
        }
      }
    } catch {
      // Temporal unreachable for a moment: the pages keep what they show; the next poll tries again.
    } finally {
      this.polling = false;
      this.schedule(changed);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.delayMs = undefined;
    this.last = '';
  }

  close(): void {
    this.stop();
    for (const listener of this.listeners) listener.stream.end();
    this.listeners.clear();
  }
}
