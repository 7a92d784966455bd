import type { CliCommand } from '../command';
import { requirePositional, stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { answeredByOf, answeredByOption } from '../answered-by';
import { boundAnswerOf, boundAnswerOptions } from '../bound-answer';

function approversOf(value: unknown): string[] {
  return (Array.isArray(value) ? value : []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
}

export const delegateCommand: CliCommand = {
  name: 'delegate',
  usage: 'delegate ID CALL_ID --to WHO[,WHO] [--reason TEXT] [--as NAME] [--digest HEX --rules-version HEX] [--json]',
  summary: 'Hand a waiting approval to other approvers (people or group:NAME); the run records and announces it.',
  details: 'Only someone who may answer the call may hand it on; the new approvers replace the call\'s own. See docs/approvals.md.',
  options: {
    to: { type: 'string', multiple: true, valueName: 'WHO[,WHO]', description: 'the new approvers: identities or group:NAME (repeatable, comma-separated)' },
    reason: { type: 'string', valueName: 'TEXT', description: 'why, shown to the new approvers' },
    as: answeredByOption,
    ...boundAnswerOptions,
  },
  examples: ['delegate support-ab12cd34 call_0_0 --to bob --as alice --reason "on leave until Monday"', 'delegate support-ab12cd34 call_0_0 --to group:finance-leads --as alice'],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const callId = requirePositional(ctx, 1, 'call id');
    const to = approversOf(ctx.values.to);
    if (to.length === 0) throw new UsageError('--to names at least one approver');
    const reason = stringOption(ctx, 'reason');
    const answerer = { ...answeredByOf(ctx), ...boundAnswerOf(ctx) };
    const client = await ctx.connect();
    const delegated = await client.get(id).delegate(callId, to, { ...(reason ? { reason } : {}), ...answerer });
    if (ctx.json) printJson(ctx.output, delegated);
    else ctx.output.out(`Handed ${callId} to ${delegated.approvers.join(', ')}.`);
    return 0;
  },
};
