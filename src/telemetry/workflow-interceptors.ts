// Workflow code: the workflow interceptor module bundled with the agent workflow in every bundle.
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { WorkflowInterceptors } from '@temporalio/workflow';
// Internal to the SDK (pinned to an exact version); the OpenTelemetry interceptors use the same two.
import { SdkFlags } from '@temporalio/workflow/lib/flags';
import { getActivator } from '@temporalio/workflow/lib/global-attributes';

/**
 * Whether this run is traced, decided once per run and the same on every replay. Even an
 * interceptor that only passes calls on adds microtask turns, which reorders the commands of runs
 * recorded without it (an update's completion lands after a search-attribute upsert), so runs
 * started before the interceptors existed must never see them. The mark is the SDK's own flag for
 * these interceptors: used (and so recorded in history, no command) by a run's first, non-replayed
 * workflow task; found in history on replay; absent from older runs.
 */
function tracedRun(): boolean {
  return getActivator().hasFlag(SdkFlags.OpenTelemetryInterceptorsInstrumentsAllMethods);
}

type Method = (input: unknown, next: (input: unknown) => unknown) => unknown;

/** An interceptor with the target's methods: the target's for traced runs, a plain `next` otherwise (no added turns). */
function gated<T extends object>(methods: string[], target: () => T, traced: () => boolean): T {
  const gate: Record<string, Method> = {};
  for (const name of methods) {
    gate[name] = (input, next) => (traced() ? (target() as unknown as Record<string, Method>)[name]!(input, next) : next(input));
  }
  return gate as unknown as T;
}

/**
 * Left untraced, because span ids come from the workflow's seeded random: queries (repeated queries
 * at the same point of history would share ids) and update validators (they do not run on replay,
 * so the ids they drew would shift every later id, and any randomness of the workflow itself). The
 * client's QueryWorkflow and StartWorkflowUpdate spans stand for them.
 */
const UNTRACED = new Set(['constructor', 'handleQuery', 'validateUpdate']);

const methodsOf = (type: { prototype: object }) => Object.getOwnPropertyNames(type.prototype).filter((name) => !UNTRACED.has(name));

export const interceptors = (): WorkflowInterceptors => {
  let decided: boolean | undefined;
  // Decided at the first intercepted call, inside the run's first activation (flags are known by then).
  const traced = () => (decided ??= tracedRun());
  let otel: { inbound: OpenTelemetryInboundInterceptor; outbound: OpenTelemetryOutboundInterceptor; internals: OpenTelemetryInternalsInterceptor } | undefined;
  // Created only for traced runs: creating them sets up a tracer in the sandbox.
  const real = () =>
    (otel ??= { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor(), internals: new OpenTelemetryInternalsInterceptor() });
  return {
    inbound: [gated(methodsOf(OpenTelemetryInboundInterceptor), () => real().inbound, traced)],
    outbound: [gated(methodsOf(OpenTelemetryOutboundInterceptor), () => real().outbound, traced)],
    // Disposal may come before any call (an early eviction): nothing was traced then.
    internals: [gated(methodsOf(OpenTelemetryInternalsInterceptor), () => real().internals, () => decided === true)],
  };
};
