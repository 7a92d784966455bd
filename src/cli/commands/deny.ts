import type { CliCommand } from '../command';
import { requirePositional, stringOption } from '../command';
import { printJson } from '../cli-output';
import { answeredByOf, answeredByOption } from '../answered-by';
import { boundAnswerOf, boundAnswerOptions } from '../bound-answer';

export const denyCommand: CliCommand = {
  name: 'deny',
  usage: 'deny ID CALL_ID [--reason TEXT] [--as NAME] [--digest HEX --rules-version HEX] [--json]',
  summary: 'Deny a waiting tool call; the model is told why.',
  options: {
    reason: { type: 'string', valueName: 'TEXT', description: 'why; the model reads it (at most 2,000 characters)', defaultText: 'no reason given' },
    as: answeredByOption,
    ...boundAnswerOptions,
  },
  examples: ["deny support-ab12cd34 call_0_0 --reason 'order is older than 30 days'"],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const callId = requirePositional(ctx, 1, 'call id');
    const answerer = { ...answeredByOf(ctx), ...boundAnswerOf(ctx) };
    const client = await ctx.connect();
    const decision = await client.get(id).deny(callId, stringOption(ctx, 'reason'), answerer);
    if (ctx.json) printJson(ctx.output, decision);
    else ctx.output.out(`Denied ${callId}.`);
    return 0;
  },
};
