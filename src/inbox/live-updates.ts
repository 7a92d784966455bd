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

/**
 * Server-sent events for every open page, from one poll shared by all of them. A list page gets
 * `waiting` (the keys of the first page's calls) whenever they change; an item page gets `gone`
 * once the call it follows stops waiting. The poll reads visibility only: the first page of what
 * waits while a list page listens, and the runs of the watched calls while an item page does. It
 * stops while no page listens.
 */
export class LiveUpdates {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  /** The data of the last `waiting` event, sent at once to a list page that opens. */
  private last = '';
  private polling = false;

  constructor(
    private readonly read: (options: { firstPage: boolean; watched: string[] }) => Promise<LiveReading>,
    private readonly intervalMs: number,
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
    this.timer ??= setInterval(() => void this.poll(), this.intervalMs);
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const all = [...this.listeners];
      const watched = [...new Set(all.flatMap((listener) => (listener.watch ? [listener.watch] : [])))];
      const reading = await this.read({ firstPage: all.some((listener) => !listener.watch), watched });
      const data = JSON.stringify({ keys: [...reading.firstPage].sort() });
      if (data !== this.last) {
        this.last = data;
        for (const listener of all) if (!listener.watch) void listener.stream.send({ event: 'waiting', data });
      }
      for (const listener of all) {
        if (!listener.watch) continue;
        if (reading.waiting.has(listener.watch)) listener.seen = true;
        else if (listener.seen) {
          void listener.stream.send({ event: 'gone', data: JSON.stringify({ key: listener.watch }) });
          listener.seen = false;
        }
      }
    } catch {
      // Temporal unreachable for a moment: the pages keep what they show; the next poll tries again.
    } finally {
      this.polling = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.last = '';
  }

  close(): void {
    this.stop();
    for (const listener of this.listeners) listener.stream.end();
    this.listeners.clear();
  }
}
