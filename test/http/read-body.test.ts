import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { HttpError, readBody, readJsonBody } from '../../src/http';

/** A request with these chunks as its body, and a Content-Length when given one. */
function requestOf(chunks: string[], contentLength?: number): IncomingMessage & { drained: () => boolean } {
  let ended = false;
  const stream = Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
  stream.on('end', () => (ended = true));
  return Object.assign(stream, {
    headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) },
    drained: () => ended,
  }) as unknown as IncomingMessage & { drained: () => boolean };
}

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('HttpError', () => {
  test('is an Error with a status, a message and headers (none unless given)', () => {
    const error = new HttpError(405, 'Method not allowed', { Allow: 'POST' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ status: 405, message: 'Method not allowed', headers: { Allow: 'POST' }, name: 'HttpError' });
    expect(new HttpError(404, 'Not found').headers).toEqual({});
  });
});

describe('readBody: a request body as text, under a size limit', () => {
  test('reads the chunks as UTF-8 text, up to the limit itself', async () => {
    await expect(readBody(requestOf(['héllo', ' ', 'wörld']), { maxBytes: 1024 })).resolves.toBe('héllo wörld');
    await expect(readBody(requestOf(['12345']), { maxBytes: 5 })).resolves.toBe('12345');
    await expect(readBody(requestOf([]), { maxBytes: 0 })).resolves.toBe('');
    await expect(readBody(requestOf(['x'.repeat(100)]), { maxBytes: Infinity })).resolves.toHaveLength(100);
  });

  test('a Content-Length over the limit is a 413 at once, and the body is still read and dropped', async () => {
    const request = requestOf(['x'.repeat(10)], 10);
    const error = await refusal(readBody(request, { maxBytes: 5 }));
    expect(error).toMatchObject({ status: 413, message: 'the body is over 5 bytes' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(request.drained()).toBe(true);
  });

  test('a body that passes the limit without a Content-Length is a 413 too, with the message given', async () => {
    const request = requestOf(['1234', '5678', '9']);
    const error = await refusal(readBody(request, { maxBytes: 6, tooLarge: 'The form is over 2 MiB.' }));
    expect(error).toMatchObject({ status: 413, message: 'The form is over 2 MiB.' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(request.drained()).toBe(true);
  });

  test('a failing request rejects with its own error', async () => {
    const request = Object.assign(
      new Readable({
        read() {
          this.destroy(new Error('aborted'));
        },
      }),
      { headers: {} },
    ) as unknown as IncomingMessage;
    await expect(readBody(request, { maxBytes: 10 })).rejects.toThrow('aborted');
  });
});

describe('readJsonBody: a request body parsed as JSON', () => {
  test('parses it', async () => {
    await expect(readJsonBody(requestOf(['{"payloads":', '[]}']), { maxBytes: 100 })).resolves.toEqual({ payloads: [] });
  });

  test('a body that is not JSON is a 400, with the message given', async () => {
    expect(await refusal(readJsonBody(requestOf(['{not json']), { maxBytes: 100 }))).toMatchObject({ status: 400, message: 'the body is not JSON' });
    expect(await refusal(readJsonBody(requestOf(['']), { maxBytes: 100, notJson: 'Request body is not valid JSON.' }))).toMatchObject({
      status: 400,
      message: 'Request body is not valid JSON.',
    });
  });

  test('the size limit comes first: an over-long body is a 413, not a 400', async () => {
    expect(await refusal(readJsonBody(requestOf(['{"a":"', 'x'.repeat(50), '"}']), { maxBytes: 10 }))).toMatchObject({ status: 413 });
  });
});
