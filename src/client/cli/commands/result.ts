import type { CliCommand } from '../command';
import { requirePositional } from '../command';
import { printJson } from '../cli-output';
import { formatCost } from '../format-event';

export const resultCommand: CliCommand = {
  name: 'result',
  usage: 'result ID [--json]',
  summary: 'Wait for a run to end and print its answer (JSON: the whole result).',
  options: {},
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const client = await ctx.connect();
    const result = await client.get(id).result();
    if (ctx.json) printJson(ctx.output, result);
    else {
      ctx.output.out(result.output);
      const cost = result.cost !== undefined ? `, cost ${formatCost(result.cost)}` : '';
      ctx.output.out(`(${result.status}, ${result.iterations} iteration(s), ${result.usage.totalTokens} tokens${cost})`);
    }
    return 0;
  },
};
