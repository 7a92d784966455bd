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
