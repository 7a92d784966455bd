import type { Tracing } from './tracing';

/** What the activities need of the worker's tracing; `undefined` where tracing is off. */
export type ActivityTracing = Pick<Tracing, 'tracer' | 'captureContent'>;
