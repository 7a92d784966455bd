import { ServiceError } from '@temporalio/client';
import { readWhenWorkerFree } from '../../src/client/fork/read-when-worker-free';

const grpcError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });
const noWorker = () => new ServiceError('Failed to query Workflow', { cause: grpcError(4, 'query timed out before a worker could process it') });

describe("a fork's reads of an ended run", () => {
  test('a query no worker took in time is asked again, and its answer is read', async () => {
    let asked = 0;
    const answer = await readWhenWorkerFree(async () => {
      asked++;
      if (asked < 3) throw noWorker();
      return 'the state';
    });
    expect({ answer, asked }).toEqual({ answer: 'the state', asked: 3 });
  });

  test('three times at most; any other failure at once', async () => {
    let asked = 0;
    await expect(readWhenWorkerFree(async () => {
      asked++;
      throw noWorker();
    })).rejects.toThrow('Failed to query Workflow');
    expect(asked).toBe(3);

    asked = 0;
    const notFound = new ServiceError('Failed to query Workflow', { cause: grpcError(5, 'workflow not found') });
    await expect(readWhenWorkerFree(async () => {
      asked++;
      throw notFound;
    })).rejects.toBe(notFound);
    expect(asked).toBe(1);
  });
});
