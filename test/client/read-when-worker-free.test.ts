import type { WorkflowHandle } from '@temporalio/client';
import { AgentRun } from '../../src/client/agent-run';
import { readWhenWorkerFree } from '../../src/client/read-when-worker-free';
import { noWorkerTookIt as noWorker, queryRefused } from '../helpers/query-refusals';

/** How many times a read that always fails with `error` is asked before the error comes back. */
async function timesAsked(error: Error): Promise<number> {
  let asked = 0;
  await expect(readWhenWorkerFree(async () => {
    asked++;
    throw error;
  })).rejects.toBe(error);
  return asked;
}

describe("a run's reads by query", () => {
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
    expect(await timesAsked(noWorker())).toBe(3);
    expect(await timesAsked(queryRefused(5, 'workflow not found'))).toBe(1);
    // The client's own deadline ran out: asking again under it could only fail again.
    expect(await timesAsked(queryRefused(4, 'Deadline exceeded after 5.001s'))).toBe(1);
  });

  test("a run's state, events and older messages are asked again when no worker took the query in time", async () => {
    const asked: string[] = [];
    const answers: Record<string, unknown> = {
      state: { agent: 'a', status: 'completed', messages: [{ role: 'assistant', content: 'newest' }], messageCount: 2, pending: [] },
      events: [{ seq: 1, type: 'run_started' }],
      conversationPage: [{ role: 'user', content: 'oldest' }],
    };
    const handle = {
      workflowId: 'ended-run',
      query: async (query: string | { name: string }) => {
        const name = typeof query === 'string' ? query : query.name;
        asked.push(name);
        if (asked.filter((n) => n === name).length === 1) throw noWorker();
        return answers[name];
      },
    } as unknown as WorkflowHandle<never>;
    const run = new AgentRun(handle, 'http://ui');
    expect((await run.state()).status).toBe('completed');
    expect(await run.eventsAfter(0)).toEqual(answers.events);
    const page = await run.messages({ from: 0, to: 1 });
    expect(page.messages.map((m) => m.content)).toEqual(['oldest']);
    expect(asked.filter((n) => n === 'conversationPage')).toHaveLength(2);
    expect(asked.filter((n) => n === 'events')).toHaveLength(2);
  });
});
