import type { Resource } from '@opentelemetry/resources';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { Tracing } from './tracing';
import { agentWorkflowInterceptorModules } from './workflow-interceptor-modules';
import { WORKFLOW_TRACING_MARKER } from './workflow-tracing-marker';

// Temporal's OpenTelemetry interceptors load only with tracing (see tracing-when-wanted.ts).
const interceptorsPackage = () => require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
const instrumentation = () =>
  require('@temporalio/interceptors-opentelemetry/lib/instrumentation') as typeof import('@temporalio/interceptors-opentelemetry/lib/instrumentation');

/**
 * The project's worker interceptors: the workflow modules (unless the code comes from a prebuilt
 * bundle, which already has them) and, with tracing, the activity span every model and tool span
 * hangs under.
 */
export function agentWorkerInterceptors(tracing: Tracing | undefined, prebuiltBundle: boolean): WorkerInterceptors {
  const workflowModules = prebuiltBundle ? [] : agentWorkflowInterceptorModules();
  if (!tracing) return { workflowModules, activity: [] };
  const options = { tracer: tracing.tracer };
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } = interceptorsPackage();
  return {
    workflowModules,
    activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, options), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
  };
}

/**
 * The sink the workflow's spans leave the sandbox through. Temporal calls it only outside replay,
 * so a span is exported once, by the worker that ran its end for the first time. Without tracing it
 * drops them.
 */
export function workflowSpanSinks(tracing: Tracing | undefined): InjectedSinks<any> {
  if (!tracing) return { exporter: { export: { fn: () => undefined } } };
  const sink = interceptorsPackage().makeWorkflowExporter(tracing.spanProcessor, tracing.resource as Resource);
  const { RUN_ID_ATTR_KEY, WORKFLOW_ID_ATTR_KEY } = instrumentation();
  // The package copies what it is given as the workflow's info into every span's attributes; the
  // whole WorkflowInfo would bring the memo and search attributes (user data) along. The ids only,
  // under the keys the activity spans use.
  const ids = (info: WorkflowInfo) => ({ [WORKFLOW_ID_ATTR_KEY]: info.workflowId, [RUN_ID_ATTR_KEY]: info.runId }) as unknown as WorkflowInfo;
  return { exporter: { export: { fn: (info: WorkflowInfo, spans: Parameters<typeof sink.export.fn>[1]) => sink.export.fn(ids(info), spans) } } };
}

/** With tracing, the activity whose name tells workflow code that this worker traces runs. */
export function workflowTracingMarker(tracing: Tracing | undefined): Record<string, () => Promise<never>> {
  if (!tracing) return {};
  return {
    [WORKFLOW_TRACING_MARKER]: async () => {
      throw new Error(`${WORKFLOW_TRACING_MARKER} only marks a worker that traces; it is not meant to be called.`);
    },
  };
}
