import { loadavg } from 'node:os';
import type { AgentClient } from '../src/client/agent-client';
import { timeAlternating } from './alternating';
import { loadAverage } from './load-average';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

/** Iterations of the runs forked: nine no-op tool calls, then the answer. */
const ITERATIONS = 10;

/**
 * What a fork saves against a fresh start, alternating: (a) a fresh run of the `loop` agent to its
 * answer (ten model calls, nine tool calls), (b) a fork of such a finished run after its last
 * tool call, to its answer (one model call: nothing before the fork point runs again), (d) only
 * the fork's start (reading the run's start input, state and events, then starting; the run has
 * ended, so each query replays its history on a worker) against (c) a fresh start's.
 */
export async function measureForks(options: { client: AgentClient; warmup: number; rounds: number }): Promise<SummaryRow[]> {
  const { client } = options;
  const parent = await client.start('loop', { prompt: String(ITERATIONS), id: `fork-parent-${Date.now()}` });
  const parentResult = await parent.result();
  if (parentResult.output !== 'done') throw new Error(`the run to fork answered '${parentResult.output}'`);
  const at = (await parent.eventsAfter(0)).filter((event) => event.type === 'tool_call_finished').at(-1)!.seq;
  let n = 0;
  const fresh = async () => {
    const result = await (await client.start('loop', { prompt: String(ITERATIONS), id: `fork-fresh-${n++}` })).result();
    if (result.output !== 'done') throw new Error(`a fresh run answered '${result.output}'`);
  };
  const fork = async () => {
    const result = await (await parent.fork({ at, id: `fork-${n++}` })).result();
    if (result.output !== 'done' || result.iterations !== ITERATIONS) throw new Error(`a fork answered '${result.output}' after ${result.iterations} iterations`);
  };
  const [runs, forks] = await timeAlternating(fresh, fork, options);
  // Each started run is one model call to its answer, left to finish in the background.
  const [starts, forkStarts] = await timeAlternating(
    () => client.start('loop', { prompt: '1', id: `fork-start-${n++}` }),
    () => parent.fork({ at, id: `fork-start-${n++}` }),
    options,
  );
  const ratio = median(forks) / median(runs);
  console.log(`\nForks: ${options.rounds} of each kind (after ${options.warmup} warm-up), alternating; the run forked: ${ITERATIONS} iterations`);
  console.log(`(a) a fresh run to its answer:                         median ${median(runs).toFixed(1)} ms  (p90 ${percentile(runs, 90).toFixed(1)} ms)`);
  console.log(`(b) a fork after its last tool call, to its answer:     median ${median(forks).toFixed(1)} ms  (p90 ${percentile(forks, 90).toFixed(1)} ms)`);
  console.log(`(c) client.start alone:                                median ${median(starts).toFixed(1)} ms`);
  console.log(`(d) run.fork alone (reads the run, then starts):        median ${median(forkStarts).toFixed(1)} ms`);
  console.log(`ratio b/a: ${ratio.toFixed(2)}; d/c: ${(median(forkStarts) / median(starts)).toFixed(2)}; ${loadAverage()}`);
  return [
    { part: 'fork', figure: `fork after the last step ÷ a fresh ${ITERATIONS}-iteration run, to the answer (median)`, value: ratio.toFixed(2), target: '', load: loadavg()[0] },
    { part: 'fork', figure: 'run.fork ÷ client.start, the start alone (median)', value: (median(forkStarts) / median(starts)).toFixed(2), target: '', load: loadavg()[0] },
  ];
}
