import { printJson } from '../cli-output';
import { stringOption, UsageError, type CliCommand } from '../command';

const DETAILS = [
  'A worker bundles the workflow code with webpack at every start unless it is given a bundle made',
  'ahead of time: createWorker({ workflowBundle: { codePath: FILE } }). Make the bundle when you build',
  'or deploy, and again whenever durable-agent is upgraded. No Temporal connection is needed.',
].join('\n');

export const bundleCommand: CliCommand = {
  name: 'bundle',
  usage: 'bundle --out FILE [--encrypted-failures] [--json]',
  summary: 'Bundle the agent workflow code ahead of time, so workers start without webpack.',
  details: DETAILS,
  options: {
    out: { type: 'string', valueName: 'FILE', description: 'where to write the bundle (required)' },
    'encrypted-failures': {
      type: 'boolean',
      description: 'keep failure messages of the workflow code in encrypted attributes (for workers that encrypt payloads)',
    },
  },
  examples: ['bundle --out build/workflow-bundle.js', 'bundle --out build/workflow-bundle.js --encrypted-failures'],
  async run(ctx) {
    const out = stringOption(ctx, 'out');
    if (!out) throw new UsageError('missing --out FILE');
    const bundle = await (require('../../worker/bundle-workflows') as typeof import('../../worker/bundle-workflows')).bundleAgentWorkflows({
      outFile: out,
      encryptedFailures: ctx.values['encrypted-failures'] === true,
    });
    if (ctx.json) printJson(ctx.output, bundle);
    else {
      ctx.output.out(`Wrote the workflow bundle (${(bundle.bytes / 1024 / 1024).toFixed(1)} MiB) to ${bundle.codePath}`);
      ctx.output.out(`Workers use it with createWorker({ workflowBundle: { codePath: ${JSON.stringify(bundle.codePath)} } }).`);
    }
    return 0;
  },
};
