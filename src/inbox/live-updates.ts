import type { ServerResponse } from 'node:http';

/** What one poll found: the keys of the calls on the list's first page, and which watched calls still wait. */
export interface LiveReading {
  firstPage: string[];
  waiting: ReadonlySet<string>;
}

interface Listener {
  response: ServerResponse;
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
  private last = '';
  private polling = false;

  constructor(
    private readonly read: (options: { firstPage: boolean; watched: string[] }) => Promise<LiveReading>,
    private readonly intervalMs: number,
  ) {}

  listen(response: ServerResponse, watch?: string): void {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    response.write(`retry: 2000\n\n`);
    const listener: Listener = { response, ...(watch ? { watch } : {}) };
    this.listeners.add(listener);
    response.on('close', () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    });
    if (!watch && this.last) response.write(this.last);
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
      const message = `event: waiting\ndata: ${JSON.stringify({ keys: [...reading.firstPage].sort() })}\n\n`;
      if (message !== this.last) {
        this.last = message;
        for (const listener of all) if (!listener.watch) listener.response.write(message);
      }
      for (const listener of all) {
        if (!listener.watch) continue;
        if (reading.waiting.has(listener.watch)) listener.seen = true;
        else if (listener.seen) {
          listener.response.write(`event: gone\ndata: ${JSON.stringify({ key: listener.watch })}\n\n`);
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
    for (const listener of this.listeners) listener.response.end();
    this.listeners.clear();
  }
}
