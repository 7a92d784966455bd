import type { TelemetryOptions } from './telemetry-options';

type Env = NodeJS.ProcessEnv;

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/** Which exporter the environment asks for, if any: the SDK's own rules, minus the exporters not bundled here. */
export function tracesExporterFromEnv(env: Env): 'otlp' | 'console' | undefined {
  if (isTrue(env.OTEL_SDK_DISABLED)) return undefined;
  const named = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (named.includes('none')) return undefined;
  if (named.includes('console')) return 'console';
  if (named.includes('otlp')) return 'otlp';
  if (named.length > 0) throw new Error(`OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER}: durable-agent supports otlp, console and none.`);
  return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'otlp' : undefined;
}

/**
 * Whether tracing is on, decided without loading OpenTelemetry: a span processor given, or an
 * exporter the environment names. A client or worker without it never loads the tracing code.
 */
export function tracingWanted(options: TelemetryOptions | false | undefined, env: Env = process.env): boolean {
  if (options === false) return false;
  return Boolean(options?.spanProcessor) || tracesExporterFromEnv(env) !== undefined;
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
