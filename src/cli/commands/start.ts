import type { CliCommand } from '../command';
import { webUiHint } from '../../client/client-config';
import { stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { checkAgentStarted } from '../agent-check';
import { followRun } from './watch';
import { budgetOption } from '../budget-option';

export const startCommand: CliCommand = {
  name: 'start',
  usage: 'start --agent NAME --prompt TEXT [--user ID] [--session ID] [--id ID] [--max-iters N] [--budget JSON] [--watch] [--json]',
  summary: 'Start an agent run; prints its id and Web UI link.',
  options: {
    agent: { type: 'string', valueName: 'NAME', description: 'the agent to run, as the worker knows it (required)' },
    prompt: { type: 'string', valueName: 'TEXT', description: "the user's request (required)" },
    user: { type: 'string', valueName: 'ID', description: 'user id for the tools (runtime context; never shown to the model)' },
    session: { type: 'string', valueName: 'ID', description: 'session id for the tools (runtime context)' },
    id: { type: 'string', valueName: 'ID', description: 'workflow id of the run', defaultText: '<agent>-<random>' },
    'max-iters': { type: 'string', valueName: 'N', description: "model calls that may use tools", defaultText: "the agent's maxIters" },
    budget: { type: 'string', valueName: 'JSON', description: 'what the run may spend on model calls, e.g. \'{"cost": 2}\' or \'{"tokens": 200000, "onReached": "stop"}\' (see docs/budgets.md)' },
    watch: { type: 'boolean', description: 'follow the run until it ends, as `watch` does' },
  },
  examples: [
    "start --agent support --prompt 'Where is order ORD-2024-001?' --user u-1001",
    "start --agent support --prompt 'Refund A-1001, it arrived broken' --watch",
    `start --agent support --prompt 'Summarise every open ticket' --budget '{"cost": 2, "more": {"cost": 1}}'`,
  ],
  async run(ctx) {
    const agent = stringOption(ctx, 'agent');
    const prompt = stringOption(ctx, 'prompt');
    if (!agent || !prompt) throw new UsageError('--agent and --prompt are required');
    const maxIters = stringOption(ctx, 'max-iters');
    if (maxIters !== undefined && !/^[1-9]\d*$/.test(maxIters)) throw new UsageError('--max-iters takes a positive integer');
    const budget = budgetOption(stringOption(ctx, 'budget'));
    const client = await ctx.connect();
    const run = await client.start(agent, {
      ...(budget ? { budget } : {}),
      prompt,
      userId: stringOption(ctx, 'user'),
      sessionId: stringOption(ctx, 'session'),
      id: stringOption(ctx, 'id'),
      ...(maxIters ? { maxIters: Number(maxIters) } : {}),
    });
    if (!ctx.json) {
      ctx.output.out(`Started ${run.workflowId}`);
      const hint = webUiHint(client.config.address);
      ctx.output.out(`Web UI: ${run.webUiUrl}${hint ? ` (${hint})` : ''}`);
    }
    // The run reports an agent no worker knows within moments: say so instead of exiting 0.
    const check = await checkAgentStarted(run);
    if (ctx.json) printJson(ctx.output, { workflowId: run.workflowId, webUiUrl: run.webUiUrl, ...(check.outcome === 'failed' || check.outcome === 'not_served' ? { error: check.message } : {}) });
    if (check.outcome === 'failed' || check.outcome === 'not_served') {
      ctx.output.err(check.message);
      return 1;
    }
    if (check.outcome === 'no_worker') {
      ctx.output.err(
        `No worker that serves agent '${agent}' has taken ${run.workflowId} yet; it starts when one polls task queue '${client.config.taskQueue}' ` +
          `(within 15 minutes, else it fails; workers of other agents on the queue leave it to one that serves it).`,
      );
    }
    return ctx.values.watch ? followRun(ctx, run) : 0;
  },
};
