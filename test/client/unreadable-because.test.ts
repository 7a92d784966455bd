import { ServiceError } from '@temporalio/client';
import { unreadableBecause } from '../../src/client/unreadable-run';

// gRPC status codes (the package is the Temporal client's, not ours to import).
const status = { CANCELLED: 1, DEADLINE_EXCEEDED: 4, FAILED_PRECONDITION: 9 } as const;
const names: Record<number, string> = { 1: 'CANCELLED', 4: 'DEADLINE_EXCEEDED', 9: 'FAILED_PRECONDITION' };

/** A failed query as the Temporal client throws it: a ServiceError whose cause carries the gRPC status. */
function queryFailure(code: number, details: string): ServiceError {
  return new ServiceError('Failed to query Workflow', { cause: Object.assign(new Error(`${code} ${names[code]}: ${details}`), { code, details }) });
}

const NO_ANSWER = { reason: 'no_answer', message: 'no worker answered its state query within 5 s' };

describe('why a waiting run could not be read', () => {
  test('the client ran out of time: DEADLINE_EXCEEDED is no_answer', () => {
    const deadline = Date.now() + 5_000;
    expect(unreadableBecause(queryFailure(status.DEADLINE_EXCEEDED, 'Deadline exceeded'), 5_000, deadline)).toEqual(NO_ANSWER);
  });

  test('the server ran out of time first and reset the stream: CANCELLED at the deadline is no_answer', () => {
    const deadline = Date.now() - 10;
    expect(unreadableBecause(queryFailure(status.CANCELLED, 'Call cancelled'), 5_000, deadline)).toEqual(NO_ANSWER);
  });

  test('CANCELLED well before the deadline is not blamed on the workers', () => {
    const deadline = Date.now() + 4_000;
    expect(unreadableBecause(queryFailure(status.CANCELLED, 'Call cancelled'), 5_000, deadline)).toEqual({
      reason: 'error',
      message: 'Failed to query Workflow: 1 CANCELLED: Call cancelled',
    });
  });

  test("the server's 'no poller seen' answer is no_answer in its own words", () => {
    const failure = queryFailure(status.FAILED_PRECONDITION, 'no poller seen for task queue recently');
    expect(unreadableBecause(failure, 5_000, Date.now() + 5_000)).toEqual({ reason: 'no_answer', message: failure.cause!.message });
  });
});
