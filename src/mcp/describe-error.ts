interface ErrorLike {
  message: string;
  cause?: unknown;
  code?: unknown;
}

// Duck-typed rather than instanceof: errors from Node internals can come from another realm
// (e.g. under test sandboxes) and fail `instanceof Error`.
function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string';
}

export function describeError(error: unknown): string {
  if (!isErrorLike(error)) return String(error);
  const causeText = isErrorLike(error.cause) ? `: ${error.cause.message}` : '';
  // The SDK's HTTP transport errors carry the HTTP status as `code`.
  const { code } = error;
  const status = typeof code === 'number' && code >= 100 && code < 600 ? ` (HTTP ${code})` : '';
  return `${error.message}${causeText}${status}`;
}
