import type { ServerResponse } from 'node:http';
import { itemKey, type WaitingList } from './waiting-items';

/**
 * Server-sent events for every open page: one poll of what waits (visibility, then each waiting
 * run's state) shared by all of them, and an event `waiting` with the keys of the waiting calls
 * whenever they change. Polling stops while no page listens.
 */
export class LiveUpdates {
  private readonly listeners = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  private last = '';
  private polling = false;

  constructor(
    private readonly read: () => Promise<WaitingList>,
    private readonly intervalMs: number,
  ) {}

  listen(response: ServerResponse): void {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    response.write(`retry: 2000\n\n`);
    this.listeners.add(response);
    response.on('close', () => {
      this.listeners.delete(response);
      if (this.listeners.size === 0) this.stop();
    });
    if (this.last) response.write(this.last);
    this.timer ??= setInterval(() => void this.poll(), this.intervalMs);
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const list = await this.read();
      const keys = list.items.map(itemKey).sort();
      const message = `event: waiting\ndata: ${JSON.stringify({ keys })}\n\n`;
      if (message !== this.last) {
        this.last = message;
        for (const listener of this.listeners) listener.write(message);
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
    for (const listener of this.listeners) listener.end();
    this.listeners.clear();
  }
}
