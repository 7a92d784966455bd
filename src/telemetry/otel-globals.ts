import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

let installed = false;

/**
 * Temporal's interceptors carry the trace in headers through the global propagator, and an
 * activity's span reaches the activity code through the global context manager; without them a
 * trace stops at every hop. An application that set up OpenTelemetry itself keeps its own.
 */
export function ensureOtelGlobals(): void {
  if (installed) return;
  installed = true;
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
  // The API's no-op propagator carries no fields.
  if (propagation.fields().length === 0) propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
