import type { CliCommand } from '../command';
import { requirePositional, stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { answeredByOf, answeredByOption } from '../answered-by';
import { boundAnswerOf, boundAnswerOptions } from '../bound-answer';

function parseInput(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input is not valid JSON: ${(error as Error).message}`);
  }
}

export const approveCommand: CliCommand = {
  name: 'approve',
  usage: 'approve ID CALL_ID|--all [--input JSON] [--remember] [--as NAME] [--digest HEX --rules-version HEX] [--json]',
  summary: 'Approve a waiting tool call (optionally with edited arguments, or remembered for the run).',
  options: {
    all: { type: 'boolean', description: 'approve every call of the run that waits now (the approveAll signal)' },
    input: { type: 'string', valueName: 'JSON', description: "replacement arguments, validated against the tool's schema again" },
    remember: { type: 'boolean', description: 'allow such calls for the rest of the run (the suggested rule)' },
    as: answeredByOption,
    ...boundAnswerOptions,
  },
  examples: [
    'approve support-ab12cd34 call_0_0',
    `approve support-ab12cd34 call_0_0 --input '{"order_id":"ORD-2024-001","amount":5}'`,
    'approve support-ab12cd34 call_0_0 --as alice@example.com',
    'approve support-ab12cd34 --all --remember',
  ],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const remember = ctx.values.remember === true;
    if (ctx.values.all) {
      if (ctx.positionals[1]) throw new UsageError('give either CALL_ID or --all');
      if (ctx.values.as !== undefined) {
        throw new UsageError('--as is not recorded by --all (the approveAll signal carries no name): approve each call to record who answered');
      }
      await (await ctx.connect()).get(id).approveAll({ remember });
      if (ctx.json) printJson(ctx.output, { workflowId: id, approvedAll: true });
      else ctx.output.out(`Approved every waiting call of ${id}.`);
      return 0;
    }
    const callId = requirePositional(ctx, 1, 'call id (or --all)');
    const options = { input: parseInput(stringOption(ctx, 'input')), remember, ...answeredByOf(ctx), ...boundAnswerOf(ctx) };
    const decision = await (await ctx.connect()).get(id).approve(callId, options);
    if (ctx.json) printJson(ctx.output, decision);
    else ctx.output.out(`Approved ${callId}${remember ? ' (remembered for this run)' : ''}.`);
    return 0;
  },
};
