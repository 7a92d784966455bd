import type { IResource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Tracing of a worker or a client. Without `spanProcessor`, spans go over OTLP when the standard
 * OTEL_* variables ask for it (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
 * OTEL_TRACES_EXPORTER); with neither, tracing is off.
 */
export interface TelemetryOptions {
  /**
   * Where every span goes: the worker's and client's own, and the workflow's, which leave the
   * workflow sandbox through a sink. A processor (not a TracerProvider) because the sink needs one.
   * The caller owns it: it is flushed, never shut down, when the worker or client closes.
   */
  spanProcessor?: SpanProcessor;
  /** The spans' resource; by default service.name `durable-agent` under OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. */
  resource?: IResource;
  /**
   * Record prompts, replies, tool arguments and tool results on the spans. They may hold personal
   * data, so the default is off, or OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true.
   */
  captureContent?: boolean;
}
