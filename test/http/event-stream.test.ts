import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStream, formatEvent, type EventStreamOptions } from '../../src/http';

/** A server whose one route opens an EventStream and hands it to the test, and a raw reader of what it sends. */
async function withStream(options: EventStreamOptions, use: (stream: EventStream, response: ServerResponse, read: Reader) => Promise<void>): Promise<void> {
  let opened!: (value: { stream: EventStream; response: ServerResponse }) => void;
  const open = new Promise<{ stream: EventStream; response: ServerResponse }>((resolve) => (opened = resolve));
  const server: Server = createServer((_request, response) => opened({ stream: new EventStream(response, options), response }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const reader = new Reader(port);
  try {
    const { stream, response } = await open;
    await reader.headersArrived;
    await use(stream, response, reader);
  } finally {
    reader.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

class Reader {
  text = '';
  status = 0;
  headers: IncomingHttpHeaders = {};
  ended = false;
  readonly headersArrived: Promise<void>;
  private readonly request;

  constructor(port: number) {
    let arrived!: () => void;
    this.headersArrived = new Promise((resolve) => (arrived = resolve));
    this.request = httpRequest({ host: '127.0.0.1', port, path: '/events' }, (response) => {
      this.status = response.statusCode ?? 0;
      this.headers = response.headers;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (this.text += chunk));
      response.on('end', () => (this.ended = true));
      response.on('error', () => undefined);
      arrived();
    });
    this.request.on('error', () => undefined);
    this.request.end();
  }

  async until(check: (reader: Reader) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!check(this)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.text)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  close(): void {
    this.request.destroy();
  }
}

describe('formatEvent: one server-sent event as it goes on the wire', () => {
  test('id, event and data fields, and the blank line that ends the event', () => {
    expect(formatEvent({ id: 7, event: 'delta', data: '{"a":1}' })).toBe('id: 7\nevent: delta\ndata: {"a":1}\n\n');
    expect(formatEvent({ event: 'end', data: '{}' })).toBe('event: end\ndata: {}\n\n');
    expect(formatEvent({ data: '[DONE]' })).toBe('data: [DONE]\n\n');
    expect(formatEvent({ id: 'abc', data: '' })).toBe('id: abc\ndata: \n\n');
  });

  test('data of several lines is a data field per line (any line ending), so it cannot end the event early', () => {
    expect(formatEvent({ data: 'one\ntwo\r\nthree\rfour' })).toBe('data: one\ndata: two\ndata: three\ndata: four\n\n');
    expect(formatEvent({ data: 'a\n\nb' })).toBe('data: a\ndata: \ndata: b\n\n');
  });

  test('an id or event name with a line break is refused: it would forge fields', () => {
    expect(() => formatEvent({ id: '1\ndata: forged', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ event: 'a\rb', data: 'x' })).toThrow(/event name holds a line break/);
  });
});

describe('EventStream: a node:http response as server-sent events', () => {
  test('answers 200 with the stream headers at once, before any event (no-cache unless told no-store)', async () => {
    await withStream({}, async (_stream, _response, reader) => {
      expect(reader.status).toBe(200);
      expect(reader.headers['content-type']).toBe('text/event-stream');
      expect(reader.headers['cache-control']).toBe('no-cache');
      expect(reader.headers.connection).toBe('keep-alive');
      expect(reader.text).toBe('');
    });
    await withStream({ cacheControl: 'no-store' }, async (_stream, _response, reader) => {
      expect(reader.headers['cache-control']).toBe('no-store');
    });
  });

  test('sends a retry field first when given one, then the events framed in order, with their reconnect ids', async () => {
    await withStream({ retryMs: 2000 }, async (stream, _response, reader) => {
      await stream.send({ id: 0, event: 'delta', data: '{"n":0}' });
      await stream.send({ id: 1, event: 'delta', data: '{"n":1}' });
      await stream.send({ event: 'end', data: '{}' });
      stream.end();
      await reader.until((r) => r.ended, 'the end of the stream');
      expect(reader.text).toBe('retry: 2000\n\nid: 0\nevent: delta\ndata: {"n":0}\n\nid: 1\nevent: delta\ndata: {"n":1}\n\nevent: end\ndata: {}\n\n');
    });
  });

  test('sends a `: keep-alive` comment at the interval given, and none without one', async () => {
    await withStream({ keepAliveMs: 20 }, async (stream, _response, reader) => {
      await reader.until((r) => r.text.split(': keep-alive\n\n').length > 2, 'two keep-alive comments');
      expect(reader.text.replaceAll(': keep-alive\n\n', '')).toBe('');
      stream.end();
    });
    await withStream({}, async (stream, _response, reader) => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await stream.comment('a note');
      stream.end();
      await reader.until((r) => r.ended, 'the end of the stream');
      expect(reader.text).toBe(': a note\n\n');
    });
  });

  test('once the client has gone, writes are dropped (never thrown) and the keep-alive stops', async () => {
    await withStream({ keepAliveMs: 10 }, async (stream, response, reader) => {
      reader.close();
      await new Promise<void>((resolve) => (response.destroyed ? resolve() : response.once('close', () => resolve())));
      expect(stream.closed).toBe(true);
      await expect(stream.send({ event: 'late', data: '{}' })).resolves.toBeUndefined();
      await expect(stream.comment('late')).resolves.toBeUndefined();
      stream.end();
    });
  });

  test('after end(), the stream is closed and further writes are dropped', async () => {
    await withStream({}, async (stream, _response, reader) => {
      await stream.send({ data: 'one' });
      stream.end();
      stream.end();
      expect(stream.closed).toBe(true);
      await stream.send({ data: 'two' });
      await reader.until((r) => r.ended, 'the end of the stream');
      expect(reader.text).toBe('data: one\n\n');
    });
  });
});
