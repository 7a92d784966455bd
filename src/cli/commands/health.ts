import { stringOption, UsageError, type CliCommand } from '../command';

export const healthCommand: CliCommand = {
  name: 'health',
  usage: 'health --health-file FILE',
  summary: "Check a worker's health file (`worker --health-file`): exit 0 when it runs and polls, 1 when it is stuck, gone or failing.",
  details: 'For container health checks: the worker rewrites the file every 5 s; a record older than 30 s means a stuck or dead process.',
  options: {
    'health-file': { type: 'string', valueName: 'FILE', description: 'the file the worker keeps fresh', env: 'AGENT_HEALTH_FILE' },
  },
  examples: ['health --health-file /tmp/durable-agent-worker.health'],
  async run(ctx) {
    const path = stringOption(ctx, 'health-file') ?? (process.env.AGENT_HEALTH_FILE || undefined);
    if (!path) throw new UsageError('--health-file (or AGENT_HEALTH_FILE) names the file the worker keeps fresh');
    const { checkHealthFile } = require('../../worker/health-check') as typeof import('../../worker/health-check');
    const { healthy, reason } = checkHealthFile(path);
    if (ctx.json) ctx.output.out(JSON.stringify({ healthy, reason }));
    else if (healthy) ctx.output.out(reason);
    else ctx.output.err(reason);
    return healthy ? 0 : 1;
  },
};
