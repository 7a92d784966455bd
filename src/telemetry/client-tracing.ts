import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { Tracing } from './tracing';

/** The client's interceptors with tracing first (StartWorkflow, SignalWorkflow, ... spans whose context travels in headers). */
export function withClientTracing(tracing: Tracing | undefined, given?: ClientInterceptors): ClientInterceptors | undefined {
  if (!tracing) return given;
  const theirs = given?.workflow;
  if (theirs !== undefined && !Array.isArray(theirs)) {
    throw new TypeError('With telemetry, give client interceptors as an array (`workflow: [...]`), not the deprecated `{ calls }` form.');
  }
  return { ...given, workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer }), ...(theirs ?? [])] };
}
