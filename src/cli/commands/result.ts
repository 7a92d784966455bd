import type { CliCommand } from '../command';
import { requirePositional } from '../command';
import { printJson } from '../cli-output';
import { formatCost } from '../../text/format-event';
import { describeRunFailure } from '../../client/run-failure';
import { describeWaitingCalls, waitingRunsLink } from '../waiting-runs';
import { resultOrWait } from '../result-or-wait';
import { waitingCallsOf } from '../../client/waiting-calls';

/** `result` of a run that waits for a person: exit code 3, so a script can tell it from a failure. */
export const WAITING_EXIT_CODE = 3;

export const resultCommand: CliCommand = {
  name: 'result',
  usage: 'result ID [--wait] [--json]',
  summary: 'Print the answer of a run (JSON: the whole result); says so when the run waits for a person.',
  details:
    'A run that is still working is waited for. A run that waits for a person (an approval or an external\n' +
    `result), now or once it starts to while this waits, is not: its pending calls are printed with the\n` +
    `commands that answer them, exit code ${WAITING_EXIT_CODE}.\n` +
    '--wait waits for the end in any case. A failed, cancelled or terminated run prints why, exit code 1.',
  options: { wait: { type: 'boolean', description: 'wait for the end even while the run waits for a person' } },
  examples: ['result support-ab12cd34', 'result support-ab12cd34 --wait --json'],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const client = await ctx.connect();
    const run = client.get(id);
    // Without --wait, a wait that begins while the run works ends this as one present at the start does.
    const end = ctx.values.wait === true ? await run.result().then((result) => ({ result }), (failure: unknown) => ({ failure })) : await resultOrWait(run);
    if ('waiting' in end) {
      const { waiting } = end;
      if (ctx.json) printJson(ctx.output, { workflowId: id, status: waiting.status, pending: waiting.pending });
      else {
        ctx.output.out(`Run ${id} is waiting for a person (${waiting.status}); result --wait waits for its end.`);
        for (const line of describeWaitingCalls(waitingCallsOf(id, waiting))) ctx.output.out(line);
        ctx.output.out(`Runs waiting in the Web UI: ${waitingRunsLink(client.config)}`);
      }
      return WAITING_EXIT_CODE;
    }
    if ('failure' in end) {
      const message = describeRunFailure(id, end.failure);
      if (ctx.json) printJson(ctx.output, { workflowId: id, status: 'failed', error: message });
      else ctx.output.err(message);
      return 1;
    }
    const { result } = end;
    if (ctx.json) printJson(ctx.output, result);
    else {
      ctx.output.out(result.output);
      const cost = result.cost !== undefined ? `, cost ${formatCost(result.cost)}` : '';
      ctx.output.out(`(${result.status}, ${result.iterations} iteration(s), ${result.usage.totalTokens} tokens${cost})`);
    }
    return 0;
  },
};
