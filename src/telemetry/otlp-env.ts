import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

import { tracesExporterFromEnv } from './traces-exporter';

type Env = NodeJS.ProcessEnv;

function otlpExporter(env: Env): SpanExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  // Both read the endpoint, headers, timeout and compression from the OTEL_EXPORTER_OTLP_* variables themselves.
  if (protocol === 'http/protobuf') return new OtlpProtoExporter();
  if (protocol === 'http/json') return new OtlpJsonExporter();
  throw new Error(`OTLP protocol '${protocol}' is not supported here: use http/protobuf (the default, port 4318) or http/json.`);
}

/** A batching processor over the exporter the environment names (OTEL_BSP_* tune the batching). */
export function spanProcessorFromEnv(env: Env): SpanProcessor | undefined {
  const kind = tracesExporterFromEnv(env);
  if (!kind) return undefined;
  return new BatchSpanProcessor(kind === 'console' ? new ConsoleSpanExporter() : otlpExporter(env));
}

/** Where the spans go, for the worker's start line: the endpoint and protocol, the console, or the caller's processor. */
export function describeTracing(options: { spanProcessor?: unknown } | undefined, env: Env = process.env): string {
  if (options?.spanProcessor) return 'your span processor';
  if (tracesExporterFromEnv(env) === 'console') return 'the console';
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const endpoint = traces || (base ? `${base.replace(/\/$/, '')}/v1/traces` : 'http://localhost:4318/v1/traces');
  return `${endpoint} (OTLP ${(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim()})`;
}
