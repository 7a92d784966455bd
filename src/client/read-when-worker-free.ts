import { ServiceError } from '@temporalio/client';

/** gRPC's status code DEADLINE_EXCEEDED. */
const DEADLINE_EXCEEDED = 4;

/** How many times a read is tried when no worker took its query in time. */
const ATTEMPTS = 3;

/**
 * The server's own answer when no worker took the query in time. A client's deadline that ran out
 * is DEADLINE_EXCEEDED too, but asking again under the same deadline could only fail again, so the
 * server's words tell the two apart.
 */
function noWorkerTookIt(error: unknown): boolean {
  const cause = error instanceof ServiceError ? (error.cause as { code?: number; details?: string } | undefined) : undefined;
  return cause?.code === DEADLINE_EXCEEDED && /before a worker could process it/.test(cause.details ?? '');
}

/**
 * A query of an ended run is answered by a worker that replays its history; on a busy fleet the
 * server may give up before a worker takes it ("query timed out before a worker could process
 * it"). Nothing was read and nothing changed, so the read is asked again, up to three times.
 */
export async function readWhenWorkerFree<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= ATTEMPTS || !noWorkerTookIt(error)) throw error;
    }
  }
}
