import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { GenAi } from './gen-ai';

/** Marks a span failed the way the conventions ask: error status, `error.type`, the exception. */
export function failSpan(span: Span, error: unknown): void {
  const type = (error as { type?: unknown })?.type;
  span.setAttribute(GenAi.errorType, typeof type === 'string' && type ? type : error instanceof Error ? error.name : 'Error');
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  if (error instanceof Error) span.recordException(error);
}
