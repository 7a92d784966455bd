import { DefaultLogger, makeTelemetryFilterString, Runtime } from '@temporalio/worker';

// The chaos files kill the processes the worker talks to: its calls are retried, and Temporal's
// core would print every retry. Only errors, from the SDK and its core alike.
Runtime.install({
  logger: new DefaultLogger('ERROR'),
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR', other: 'ERROR' }), forward: {} } },
});
