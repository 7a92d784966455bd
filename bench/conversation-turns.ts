import { loadavg } from 'node:os';
import type { AgentClient } from '../src/client/agent-client';
import type { AgentRunResult } from '../src/common/run';
import { timeAlternating } from './alternating';
import { loadAverage } from './load-average';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

/**
 * A turn of a conversation against a one-shot run of the same work (the model asks for a no-op
 * tool, the tool runs, the model answers), alternating: the conversation is one long-lived
 * workflow, each run a new one.
 */
export async function measureConversationTurns(options: { client: AgentClient; warmup: number; rounds: number }): Promise<SummaryRow[]> {
  const { client } = options;
  const conversation = client.conversation('bench', { sessionId: `bench-${Date.now().toString(36)}` });
  let n = 0;
  const oneShot = async () => {
    const run = await client.start('bench', { prompt: 'go', id: `oneshot-${n++}` });
    const result: AgentRunResult = await run.result();
    if (result.output !== 'done') throw new Error(`unexpected run result '${result.output}'`);
  };
  const turn = async () => {
    const answer = await conversation.send('go');
    if (answer.output !== 'done') throw new Error(`unexpected turn answer '${answer.output}'`);
  };
  const [runs, turns] = await timeAlternating(oneShot, turn, options);
  await conversation.end();
  const ratio = median(turns) / median(runs);
  console.log(`\nConversation turns: ${options.rounds} turns of one conversation against as many one-shot runs of the same work (after ${options.warmup} warm-up), alternating`);
  console.log(`(a) one-shot run (start, one iteration, result):  median ${median(runs).toFixed(1)} ms  (p90 ${percentile(runs, 90).toFixed(1)} ms)`);
  console.log(`(b) one turn (sendMessage update, one iteration): median ${median(turns).toFixed(1)} ms  (p90 ${percentile(turns, 90).toFixed(1)} ms)`);
  console.log(`ratio b/a: ${ratio.toFixed(2)}; ${loadAverage()}`);
  return [{ part: 'conv', figure: 'conversation turn / one-shot run (median)', value: ratio.toFixed(2), target: '', load: loadavg()[0] }];
}
