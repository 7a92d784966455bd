import { ServiceError } from '@temporalio/client';

/** A query refused the way the client reports the server's refusal: a gRPC status code and the server's words. */
export const queryRefused = (code: number, details: string): ServiceError =>
  new ServiceError('Failed to query Workflow', { cause: Object.assign(new Error(`${code} ${details}`), { code, details }) });

/** The server's answer when no worker took a query in time (a busy fleet). */
export const noWorkerTookIt = (): ServiceError => queryRefused(4, 'query timed out before a worker could process it');
