import type { ClientInterceptors } from '@temporalio/client';
import type { TelemetryOptions } from './telemetry-options';
import { tracingWanted } from './traces-exporter';
import type { Tracing } from './tracing';

// OpenTelemetry's SDK, exporters and Temporal's interceptors hold about 3 MiB of heap once loaded;
// a client or worker that does not trace never loads them.

/** The tracing a client or worker runs with, or `undefined` (OpenTelemetry unloaded) when it is off. */
export function tracingWhenWanted(options: TelemetryOptions | false | undefined): Tracing | undefined {
  if (!tracingWanted(options)) return undefined;
  return (require('./tracing') as typeof import('./tracing')).resolveTracing(options);
}

/** The client's interceptors, with the tracing one first when there is tracing. */
export function clientInterceptorsFor(tracing: Tracing | undefined, given?: ClientInterceptors): ClientInterceptors | undefined {
  if (!tracing) return given;
  return (require('./client-tracing') as typeof import('./client-tracing')).withClientTracing(tracing, given);
}
