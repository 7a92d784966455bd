import { loadavg } from 'node:os';
import type { AgentClient } from '../src/client/agent-client';
import { timeAlternating } from './alternating';
import { loadAverage } from './load-average';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

/**
 * A sub-agent call against a plain tool call, alternating: `bench` calls its no-op tool (one
 * activity), `delegate` calls the `answerer` agent (a child workflow whose run is one model call);
 * both then answer. The difference of the medians is what a sub-agent call costs over a tool call.
 */
export async function measureSubAgentCall(options: { client: AgentClient; warmup: number; rounds: number }): Promise<SummaryRow[]> {
  const { client } = options;
  let n = 0;
  const run = (agent: string) => async () => {
    const result = await (await client.start(agent, { prompt: 'go', id: `${agent}-${n++}` })).result();
    if (result.output !== 'done') throw new Error(`unexpected ${agent} result '${result.output}'`);
  };
  const [tools, subAgents] = await timeAlternating(run('bench'), run('delegate'), options);
  const ratio = median(subAgents) / median(tools);
  const overhead = median(subAgents) - median(tools);
  console.log(`\nSub-agent call: ${options.rounds} runs of each kind (after ${options.warmup} warm-up), alternating`);
  console.log(`(a) run with one no-op tool call:                    median ${median(tools).toFixed(1)} ms  (p90 ${percentile(tools, 90).toFixed(1)} ms)`);
  console.log(`(b) run with one sub-agent call (one model call):    median ${median(subAgents).toFixed(1)} ms  (p90 ${percentile(subAgents, 90).toFixed(1)} ms)`);
  console.log(`ratio b/a: ${ratio.toFixed(2)}; a sub-agent call costs ${overhead.toFixed(1)} ms more than a tool call; ${loadAverage()}`);
  return [
    { part: 'sub', figure: 'run with a sub-agent call / run with a tool call (median)', value: ratio.toFixed(2), target: '', load: loadavg()[0] },
    { part: 'sub', figure: 'a sub-agent call over a tool call, ms (median difference)', value: overhead.toFixed(1), target: '', load: loadavg()[0] },
  ];
}
