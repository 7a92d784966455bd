/*
 * The one writer of server-sent events in src/. Hand-written rather than taken from better-sse
 * (looked at: 0.16.1, MIT, no dependencies), because our streams run on node:http's raw
 * ServerResponse and keep their wire format and their rules, which better-sse does not let them:
 * - it writes headers of its own (Pragma, X-Accel-Buffering, a longer Cache-Control), and the head
 *   only on the next tick;
 * - it gives every event sent without an id a random UUID one, which a browser sends back as
 *   Last-Event-ID (the worker's endpoint takes that as a position, and answers 400 to a UUID), and
 *   names every event (`event: message`);
 * - its keep-alive is an empty comment every 10 s, ours `: keep-alive` at the interval a server picks;
 * - it throws on a write once the client has gone, and gives no write callback to wait on, which
 *   the scripted model server paces its chunks by (backpressure).
 * The format itself is a few lines (WHATWG HTML, "Server-sent events").
 */
import type { ServerResponse } from 'node:http';

export interface ServerSentEvent {
  /** `event:`, the name a browser's EventSource dispatches it by; none is a `message`. */
  event?: string;
  /** `id:`: what a browser's EventSource sends back as Last-Event-ID when it reconnects. */
  id?: string | number;
  /** `data:`, one field per line of it. */
  data: string;
}

export interface EventStreamOptions {
  /** The Cache-Control header. Default `no-cache`. */
  cacheControl?: 'no-cache' | 'no-store';
  /** When set, sent first as `retry:`: how many ms a browser waits before it reconnects. */
  retryMs?: number;
  /** When set, a `: keep-alive` comment every so many ms, so proxies and clients keep an idle stream open. */
  keepAliveMs?: number;
  /** Name the text's charset in the Content-Type (`text/event-stream; charset=utf-8`). */
  charset?: boolean;
  /** Tell a proxy such as nginx not to buffer the stream (`x-accel-buffering: no`). */
  unbuffered?: boolean;
}

function checkedField(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new TypeError(`A server-sent event's ${name} holds a line break: ${JSON.stringify(value)}`);
  return value;
}

/** One event as it goes on the wire: `id:`, `event:`, a `data:` per line, and the blank line that ends it. */
export function formatEvent(event: ServerSentEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${checkedField('id', String(event.id))}\n`;
  if (event.event !== undefined) text += `event: ${checkedField('event name', event.event)}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * A response turned into a stream of server-sent events: it answers 200 with the stream's headers
 * at once (flushed, so the client sees the stream open before the first event). Every write
 * returns a promise that settles once the text is handed to the socket, for a writer that paces
 * itself by it; once the client has gone (or the stream ended) writes are dropped, never thrown.
 */
export class EventStream {
  private readonly keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly response: ServerResponse,
    options: EventStreamOptions = {},
  ) {
    response.writeHead(200, {
      'content-type': options.charset ? 'text/event-stream; charset=utf-8' : 'text/event-stream',
      'cache-control': options.cacheControl ?? 'no-cache',
      ...(options.unbuffered ? { 'x-accel-buffering': 'no' } : {}),
      connection: 'keep-alive',
    });
    response.flushHeaders();
    if (options.retryMs !== undefined) void this.write(`retry: ${options.retryMs}\n\n`);
    if (options.keepAliveMs !== undefined) this.keepAlive = setInterval(() => void this.comment('keep-alive'), options.keepAliveMs);
    response.once('close', () => clearInterval(this.keepAlive));
  }

  /** Whether the client has gone or the stream was ended: writes are dropped then. */
  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  send(event: ServerSentEvent): Promise<void> {
    return this.write(formatEvent(event));
  }

  /** A comment line (`: text`), which clients ignore. */
  comment(text: string): Promise<void> {
    return this.write(`: ${checkedField('comment', text)}\n\n`);
  }

  /** Ends the response (the client's EventSource reconnects unless told otherwise, e.g. by an `end` event). */
  end(): void {
    clearInterval(this.keepAlive);
    if (!this.response.writableEnded) this.response.end();
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.response.write(text, () => resolve());
    });
  }
}
