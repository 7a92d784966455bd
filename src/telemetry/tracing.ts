import type { Tracer } from '@opentelemetry/api';
import { envDetectorSync, Resource, type IResource } from '@opentelemetry/resources';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { CAPTURE_CONTENT_ENV } from './gen-ai';
import { ensureOtelGlobals } from './otel-globals';
import { spanProcessorFromEnv } from './otlp-env';
import type { TelemetryOptions } from './telemetry-options';

/** Tracing as a worker or client runs it; `undefined` where tracing is off. */
export interface Tracing {
  tracer: Tracer;
  spanProcessor: SpanProcessor;
  resource: IResource;
  captureContent: boolean;
  /** Flushes the spans; shuts the exporter down when this created it from the environment. */
  close(): Promise<void>;
}

const TRACER_NAME = 'durable-agent';

function defaultResource(): IResource {
  // Later wins: the SDK's defaults, then ours, then OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES (read from process.env).
  return Resource.default().merge(new Resource({ 'service.name': 'durable-agent' })).merge(envDetectorSync.detect());
}

export function captureContentFromEnv(env: NodeJS.ProcessEnv): boolean {
  return env[CAPTURE_CONTENT_ENV]?.trim().toLowerCase() === 'true';
}

export function resolveTracing(options: TelemetryOptions | false | undefined, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (options === false) return undefined;
  const given = options?.spanProcessor;
  const spanProcessor = given ?? spanProcessorFromEnv(env);
  if (!spanProcessor) return undefined;
  ensureOtelGlobals();
  const resource = options?.resource ?? defaultResource();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  return {
    tracer: provider.getTracer(TRACER_NAME),
    spanProcessor,
    resource,
    captureContent: options?.captureContent ?? captureContentFromEnv(env),
    close: () => (given ? given.forceFlush() : spanProcessor.shutdown()),
  };
}
