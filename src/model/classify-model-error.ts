import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { FailureTypes } from '../common/failures';
import { ModelResponseError } from './model-response-error';
import { redactSecrets } from '../common/redact-secrets';
import { retryAfterMs } from './retry-after';

export interface ModelErrorContext {
  model: string;
  /** Values that must never appear in a failure (the API key). Key-like strings are removed anyway. */
  secrets?: readonly (string | undefined)[];
}

/** What the workflow learns about a failed model call; no headers, no request. */
export interface ModelFailureDetails {
  model: string;
  status?: number;
  code?: string;
  errorType?: string;
  param?: string;
  requestId?: string;
}

type ModelFailureType = (typeof FailureTypes)[keyof typeof FailureTypes];

interface StatusRule {
  type: ModelFailureType;
  retryable: boolean;
}

const maxProviderMessage = 2000;

/** Which statuses a retry may fix: 408, 409, 429 and 5xx; every other 4xx is the request's fault. */
export function statusRule(status: number, reason: { code?: string; errorType?: string } = {}): StatusRule {
  if (status === 401 || status === 403) return { type: FailureTypes.modelAuth, retryable: false };
  if (status === 404) return { type: FailureTypes.modelNotFound, retryable: false };
  if (status === 408) return { type: FailureTypes.modelTimeout, retryable: true };
  if (status === 409) return { type: FailureTypes.modelServer, retryable: true };
  // An exhausted quota answers 429 too, but waiting does not refill it.
  if (status === 429) {
    const quota = reason.code === 'insufficient_quota' || reason.errorType === 'insufficient_quota';
    return { type: FailureTypes.modelRateLimit, retryable: !quota };
  }
  if (status >= 500) return { type: FailureTypes.modelServer, retryable: true };
  if (status >= 400) return { type: FailureTypes.modelBadRequest, retryable: false };
  return { type: FailureTypes.modelInvalidResponse, retryable: true };
}

/** Turns anything a model call throws into an `ApplicationFailure` with a `Model.*` type. */
export function classifyModelError(error: unknown, context: ModelErrorContext): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  const { model } = context;
  const clean = (text: string) => redactSecrets(text, context.secrets).slice(0, maxProviderMessage);
  const fail = (
    type: ModelFailureType,
    retryable: boolean,
    message: string,
    details: ModelFailureDetails,
    delay?: number,
  ) =>
    ApplicationFailure.create({
      message: clean(message),
      type,
      nonRetryable: !retryable,
      details: [details],
      ...(retryable && delay !== undefined ? { nextRetryDelay: delay } : {}),
    });

  if (error instanceof ModelResponseError) {
    const type = error.kind === 'truncated' ? FailureTypes.modelConnection : FailureTypes.modelInvalidResponse;
    return fail(type, true, error.message, { model });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return fail(FailureTypes.modelTimeout, true, `Model ${model} timed out: ${error.message}`, { model });
  }
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return fail(FailureTypes.modelTimeout, true, `Model ${model} request was aborted before it finished.`, { model });
  }
  if (error instanceof APIConnectionError) {
    return fail(FailureTypes.modelConnection, true, `Could not connect to model ${model}: ${describeError(error)}`, {
      model,
    });
  }
  if (error instanceof APIError) {
    const details: ModelFailureDetails = {
      model,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(typeof error.code === 'string' ? { code: error.code } : {}),
      ...(typeof error.type === 'string' ? { errorType: error.type } : {}),
      ...(typeof error.param === 'string' ? { param: error.param } : {}),
      ...(typeof error.requestID === 'string' ? { requestId: error.requestID } : {}),
    };
    const said = providerMessage(error);
    if (error.status === undefined) {
      // An error event inside an already started stream.
      return fail(FailureTypes.modelServer, true, `Model ${model} reported an error mid-stream: ${said}`, details);
    }
    const rule = isContextTooLong(error.status, details.code, said)
      ? { type: FailureTypes.modelContextTooLong, retryable: false }
      : statusRule(error.status, details);
    return fail(
      rule.type,
      rule.retryable,
      `Model ${model} failed with HTTP ${error.status}: ${said}`,
      details,
      retryAfterMs(error.headers),
    );
  }
  if (errorName(error) === 'SyntaxError') {
    const message = `Model ${model} sent a response that is not valid JSON: ${describeError(error)}`;
    return fail(FailureTypes.modelInvalidResponse, true, message, { model });
  }
  // Anything else came from the transport, e.g. undici's "terminated" when the socket closes mid-body.
  const broke = `Connection to model ${model} broke: ${describeError(error)}`;
  return fail(FailureTypes.modelConnection, true, broke, { model });
}

/**
 * Providers say it differently: OpenAI's `context_length_exceeded` code, or the message (vLLM,
 * llama.cpp, Ollama, Anthropic-compatible gateways: "maximum context length", "prompt is too long"),
 * most with a 400, llama.cpp's server with a 500 ("Context size has been exceeded"): a retry of the
 * same request cannot succeed, whatever the status says.
 */
const CONTEXT_TOO_LONG = /context[_ ](length|size|window)|maximum context|prompt is too long|too many tokens|exceeds? the (model'?s? )?(context|token limit)/i;

export function isContextTooLong(status: number, code: string | undefined, message: string): boolean {
  return status >= 400 && (code === 'context_length_exceeded' || CONTEXT_TOO_LONG.test(message));
}

function providerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  if (body && body.message !== undefined) return JSON.stringify(body.message);
  const status = error.status !== undefined ? String(error.status) : '';
  return error.message.startsWith(`${status} `) ? error.message.slice(status.length + 1) : error.message;
}

// Duck-typed: fetch's DOMException and errors from another realm fail `instanceof Error`.
function errorName(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function isAbortError(error: unknown): boolean {
  return errorName(error) === 'AbortError';
}

/** The error's message, followed by its cause's message (where undici puts the real reason). */
function describeError(error: unknown): string {
  const message = (value: unknown) => {
    const text = (value as { message?: unknown } | null)?.message;
    return typeof text === 'string' ? text : undefined;
  };
  const own = message(error) ?? String(error);
  const cause = message((error as { cause?: unknown } | null)?.cause);
  return cause ? `${own} (${cause})` : own;
}
