import { loadavg } from 'node:os';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { loadAverage } from './load-average';
import { median, mib, percentile } from './stats';
import type { SummaryRow } from './summary';

/**
 * P1: (a) the floor — a bare workflow with two no-op activities in sequence — against (b) one
 * agent iteration — the scripted model asks for a no-op tool, the tool runs, the model answers —
 * alternating, so both see the same machine state.
 */
export async function measureOneIteration(options: { client: Client; taskQueue: string; warmup: number; rounds: number }): Promise<SummaryRow[]> {
  const { client, taskQueue } = options;
  let n = 0;
  const floor = async () => {
    const t = performance.now();
    await client.workflow.execute('floorWorkflow', { taskQueue, workflowId: `floor-${n++}`, args: [] });
    return performance.now() - t;
  };
  const agent = async () => {
    const t = performance.now();
    const result: AgentRunResult = await client.workflow.execute('agentWorkflow', {
      taskQueue,
      workflowId: `agent-${n++}`,
      args: [{ agent: 'bench', prompt: 'go', runtime: {} }],
    });
    if (result.output !== 'done') throw new Error('unexpected agent result');
    return performance.now() - t;
  };

  for (let i = 0; i < options.warmup; i++) await Promise.all([floor(), agent()]);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < options.rounds; i++) {
    a.push(await floor());
    b.push(await agent());
  }
  const rss = process.memoryUsage().rss;
  const ma = median(a);
  const mb = median(b);
  console.log(`\nP1 one iteration vs the floor: ${options.rounds} rounds each (after ${options.warmup} warm-up), alternating, one dev server, one worker`);
  console.log(`(a) floor, 2 no-op activities:   median ${ma.toFixed(1)} ms  (p90 ${percentile(a, 90).toFixed(1)} ms)`);
  console.log(`(b) one agent iteration:         median ${mb.toFixed(1)} ms  (p90 ${percentile(b, 90).toFixed(1)} ms)`);
  console.log(`ratio b/a: ${(mb / ma).toFixed(2)}  (target ≤ 1.5); ${loadAverage()}`);
  console.log(`worker process RSS: ${mib(rss)}`);
  return [{ part: 'P1', figure: 'one iteration / floor (median)', value: (mb / ma).toFixed(2), target: '≤ 1.5', met: mb / ma <= 1.5, load: loadavg()[0] }];
}
