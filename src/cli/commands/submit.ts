import type { CliCommand } from '../command';
import { requirePositional, stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { answeredByOf, answeredByOption } from '../answered-by';

export const submitCommand: CliCommand = {
  name: 'submit',
  usage: 'submit ID CALL_ID --output TEXT [--error] [--as NAME] [--json]',
  summary: 'Submit the result of an external tool call.',
  options: {
    output: { type: 'string', valueName: 'TEXT', description: "the tool's result, as the model will read it (required)" },
    error: { type: 'boolean', description: 'the result is an error' },
    as: answeredByOption,
  },
  examples: ["submit support-ab12cd34 call_1_0 --output 'tracking SF42'", "submit support-ab12cd34 call_1_0 --output 'no such address' --error"],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const callId = requirePositional(ctx, 1, 'call id');
    const output = stringOption(ctx, 'output');
    if (output === undefined) throw new UsageError('--output is required');
    const options = { isError: ctx.values.error === true, ...answeredByOf(ctx) };
    const client = await ctx.connect();
    const submitted = await client.get(id).submit(callId, output, options);
    if (ctx.json) printJson(ctx.output, submitted);
    else ctx.output.out(`Submitted the result of ${callId}.`);
    return 0;
  },
};
