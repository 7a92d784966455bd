// durable-agent/telemetry: tracing and metrics beyond what createWorker's options and OTEL_* give.
export type { TelemetryOptions } from '../telemetry/telemetry-options';
export { installRuntime, type InstallRuntimeOptions, type RuntimeMetricsOptions } from '../telemetry/install-runtime';
export { agentWorkflowSinks } from '../telemetry/agent-workflow-sinks';
export { agentWorkflowInterceptorModules } from '../telemetry/workflow-interceptor-modules';
export { AgentMetric } from '../telemetry/metric-names';
