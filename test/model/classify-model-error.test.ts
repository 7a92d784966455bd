import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { FailureTypes } from '../../src/common/failures';
import { classifyModelError } from '../../src/model/classify-model-error';
import { ModelResponseError } from '../../src/model/model-response-error';
import { retryAfterMs } from '../../src/model/retry-after';

const context = { model: 'gpt-c', secrets: ['sk-live-topsecret-000'] };

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds, fractional seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
  });

  it('ignores missing, past, zero and unparsable values', () => {
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '0' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '-5' }), now)).toBeUndefined();
  });
});

describe('classifyModelError', () => {
  it('sets nextRetryDelay from an HTTP date retry-after on a 429', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const headers = new Headers({ 'retry-after': inTenSeconds });
    const error = APIError.generate(429, { error: { message: 'Too many' } }, undefined, headers);
    const failure = classifyModelError(error, context);
    expect(failure.type).toBe(FailureTypes.modelRateLimit);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBeGreaterThan(8000);
    expect(failure.nextRetryDelay).toBeLessThanOrEqual(10_000);
  });

  it('gives no nextRetryDelay to a non-retryable failure even when the provider sends retry-after', () => {
    const error = APIError.generate(400, { error: { message: 'bad' } }, undefined, new Headers({ 'retry-after': '5' }));
    const failure = classifyModelError(error, context);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.nextRetryDelay).toBeUndefined();
  });

  it('treats other 4xx statuses as bad requests', () => {
    const error = APIError.generate(413, { error: { message: 'too large' } }, undefined, new Headers());
    const failure = classifyModelError(error, context);
    expect(failure.type).toBe(FailureTypes.modelBadRequest);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toBe('Model gpt-c failed with HTTP 413: too large');
  });

  it.each([
    [{ error: { message: 'Too long.', code: 'context_length_exceeded' } }],
    [{ error: { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens." } }],
    [{ error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } }],
    [{ error: { message: 'the request exceeds the available context size, try increasing it' } }],
  ])('a 400 saying the context is too long is Model.ContextTooLong (%j), so the run compacts instead of failing', (body) => {
    const failure = classifyModelError(APIError.generate(400, body, undefined, new Headers()), context);
    expect(failure.type).toBe(FailureTypes.modelContextTooLong);
    expect(failure.nonRetryable).toBe(true);
  });

  it("llama.cpp's 500 saying the context size was exceeded is Model.ContextTooLong too: a retry of it cannot succeed", () => {
    const failure = classifyModelError(APIError.generate(500, { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } }, undefined, new Headers()), context);
    expect(failure.type).toBe(FailureTypes.modelContextTooLong);
    expect(failure.nonRetryable).toBe(true);
    expect(classifyModelError(APIError.generate(500, { error: { message: 'out of memory' } }, undefined, new Headers()), context).type).toBe(FailureTypes.modelServer);
  });

  it('other 400s stay bad requests', () => {
    const failure = classifyModelError(APIError.generate(400, { error: { message: 'tools[0].name is invalid' } }, undefined, new Headers()), context);
    expect(failure.type).toBe(FailureTypes.modelBadRequest);
  });

  it('uses the raw body text when the provider sends no JSON error', () => {
    const failure = classifyModelError(APIError.generate(502, undefined, 'Bad Gateway', new Headers()), context);
    expect(failure.type).toBe(FailureTypes.modelServer);
    expect(failure.message).toBe('Model gpt-c failed with HTTP 502: Bad Gateway');
  });

  it('classifies an error event inside a stream as a retryable server error', () => {
    const error = new APIError(undefined, { message: 'overloaded mid-stream' }, undefined, undefined);
    const failure = classifyModelError(error, context);
    expect(failure.type).toBe(FailureTypes.modelServer);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe('Model gpt-c reported an error mid-stream: overloaded mid-stream');
  });

  it('classifies timeouts, aborts and connection errors as retryable', () => {
    const timeout = classifyModelError(new APIConnectionTimeoutError(), context);
    expect([timeout.type, timeout.nonRetryable]).toEqual([FailureTypes.modelTimeout, false]);
    const abort = classifyModelError(new APIUserAbortError(), context);
    expect([abort.type, abort.nonRetryable]).toEqual([FailureTypes.modelTimeout, false]);
    const domAbort = classifyModelError(new DOMException('This operation was aborted', 'AbortError'), context);
    expect([domAbort.type, domAbort.nonRetryable]).toEqual([FailureTypes.modelTimeout, false]);
    const connection = classifyModelError(
      new APIConnectionError({ message: 'Connection error.', cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }),
      context,
    );
    expect([connection.type, connection.nonRetryable]).toEqual([FailureTypes.modelConnection, false]);
    expect(connection.message).toBe('Could not connect to model gpt-c: Connection error. (connect ECONNREFUSED 127.0.0.1:9)');
  });

  it('classifies a truncated stream as a connection failure and a malformed response as invalid', () => {
    const truncated = classifyModelError(new ModelResponseError('truncated', 'ended early'), context);
    expect([truncated.type, truncated.nonRetryable]).toEqual([FailureTypes.modelConnection, false]);
    const invalid = classifyModelError(new ModelResponseError('invalid', 'no choices'), context);
    expect([invalid.type, invalid.nonRetryable]).toEqual([FailureTypes.modelInvalidResponse, false]);
    const syntax = classifyModelError(new SyntaxError('Unexpected token < in JSON'), context);
    expect(syntax.type).toBe(FailureTypes.modelInvalidResponse);
  });

  it('classifies a broken body read as a retryable connection failure', () => {
    const failure = classifyModelError(new TypeError('terminated', { cause: new Error('other side closed') }), context);
    expect(failure.type).toBe(FailureTypes.modelConnection);
    expect(failure.message).toBe('Connection to model gpt-c broke: terminated (other side closed)');
  });

  it('returns an ApplicationFailure unchanged', () => {
    const original = ApplicationFailure.nonRetryable('already classified', 'Custom.Type');
    expect(classifyModelError(original, context)).toBe(original);
  });

  it('removes the given secrets and key-like strings from messages', () => {
    const error = APIError.generate(
      401,
      { error: { message: 'Key sk-live-topsecret-000 rejected; header was Bearer abcdefghijkl; other sk-abcdef123456' } },
      undefined,
      new Headers(),
    );
    const failure = classifyModelError(error, context);
    expect(failure.message).toBe(
      'Model gpt-c failed with HTTP 401: Key [redacted] rejected; header was [redacted]; other [redacted]',
    );
  });
});
