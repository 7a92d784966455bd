// Workflow code: the workflow interceptor module bundled with the agent workflow in every bundle.
import type {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { WorkflowInterceptors } from '@temporalio/workflow';
import { decideTracedRun } from './traced-run';

type Method = (input: unknown, next: (input: unknown) => unknown) => unknown;
type OpenTelemetryInterceptors = {
  inbound: OpenTelemetryInboundInterceptor;
  outbound: OpenTelemetryOutboundInterceptor;
  internals: OpenTelemetryInternalsInterceptor;
};

/**
 * Loaded on the first traced call only. Every run in a worker's cache gets its own instance of
 * each module it loads, and the OpenTelemetry modules are most of a run's heap: untraced runs
 * never load them.
 */
function createOpenTelemetryInterceptors(): OpenTelemetryInterceptors {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const otel = require('@temporalio/interceptors-opentelemetry/lib/workflow') as typeof import('@temporalio/interceptors-opentelemetry/lib/workflow');
  return {
    inbound: new otel.OpenTelemetryInboundInterceptor(),
    outbound: new otel.OpenTelemetryOutboundInterceptor(),
    internals: new otel.OpenTelemetryInternalsInterceptor(),
  };
}

/**
 * Left untraced, because span ids come from the workflow's seeded random: queries (repeated queries
 * at the same point of history would share ids) and update validators (they do not run on replay,
 * so the ids they drew would shift every later id, and any randomness of the workflow itself). The
 * client's QueryWorkflow and StartWorkflowUpdate spans stand for them.
 */
const UNTRACED: ReadonlySet<string | symbol> = new Set<string | symbol>(['constructor', 'handleQuery', 'validateUpdate']);

/**
 * An interceptor whose every method is the real one for traced runs and a plain `next` otherwise
 * (no added turns). A proxy, because naming the real interceptors' methods would load them.
 */
function gated(real: () => Record<string, Method | undefined>, traced: () => boolean): object {
  const passOn: Method = (input, next) => next(input);
  return new Proxy(
    {},
    {
      get(_target, name) {
        if (typeof name !== 'string' || UNTRACED.has(name)) return undefined;
        if (!traced()) return passOn;
        const method = real()[name];
        return method ? (method.bind(real()) as Method) : undefined;
      },
    },
  );
}

export const interceptors = (): WorkflowInterceptors => {
  let decided: boolean | undefined;
  // Decided at the first intercepted call, inside the run's first activation (flags are known by then).
  const traced = () => (decided ??= decideTracedRun());
  let otel: OpenTelemetryInterceptors | undefined;
  const real = () => (otel ??= createOpenTelemetryInterceptors());
  const view = (kind: keyof OpenTelemetryInterceptors) => () => real()[kind] as unknown as Record<string, Method | undefined>;
  return {
    inbound: [gated(view('inbound'), traced)],
    outbound: [gated(view('outbound'), traced)],
    // Disposal may come before any call (an early eviction): nothing was traced then.
    internals: [gated(view('internals'), () => decided === true)],
  } as WorkflowInterceptors;
};
