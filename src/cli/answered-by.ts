import { stringOption, UsageError, type CliOption, type CommandContext } from './command';

/** `--as NAME`: who answers, recorded with the decision or result and in the run's event (`answeredBy`). */
export const answeredByOption: CliOption = {
  type: 'string',
  valueName: 'NAME',
  description: "who answers (a person's name or address), recorded with the answer and in its event",
  env: 'AGENT_ANSWERED_BY',
};

export function answeredByOf(ctx: CommandContext): { answeredBy?: string } {
  const given = stringOption(ctx, 'as');
  const name = (given ?? process.env.AGENT_ANSWERED_BY ?? '').trim();
  if (given !== undefined && name === '') throw new UsageError('--as needs a name');
  return name ? { answeredBy: name } : {};
}
