import type { CliCommand } from '../command';
import { stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { followRun } from './watch';

export const startCommand: CliCommand = {
  name: 'start',
  usage: 'start --agent NAME --prompt TEXT [--user ID] [--session ID] [--id ID] [--max-iters N] [--watch] [--json]',
  summary: 'Start an agent run; prints its id and Web UI link.',
  options: {
    agent: { type: 'string' },
    prompt: { type: 'string' },
    user: { type: 'string' },
    session: { type: 'string' },
    id: { type: 'string' },
    'max-iters': { type: 'string' },
    watch: { type: 'boolean' },
  },
  async run(ctx) {
    const agent = stringOption(ctx, 'agent');
    const prompt = stringOption(ctx, 'prompt');
    if (!agent || !prompt) throw new UsageError('--agent and --prompt are required');
    const maxIters = stringOption(ctx, 'max-iters');
    if (maxIters !== undefined && !/^[1-9]\d*$/.test(maxIters)) throw new UsageError('--max-iters takes a positive integer');
    const client = await ctx.connect();
    const run = await client.start(agent, {
      prompt,
      userId: stringOption(ctx, 'user'),
      sessionId: stringOption(ctx, 'session'),
      id: stringOption(ctx, 'id'),
      ...(maxIters ? { maxIters: Number(maxIters) } : {}),
    });
    if (ctx.json) printJson(ctx.output, { workflowId: run.workflowId, webUiUrl: run.webUiUrl });
    else {
      ctx.output.out(`Started ${run.workflowId}`);
      ctx.output.out(`Web UI: ${run.webUiUrl}`);
    }
    return ctx.values.watch ? followRun(ctx, run) : 0;
  },
};
