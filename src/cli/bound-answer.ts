import { z } from 'zod';
import { stringOption, UsageError, type CliOption, type CommandContext } from './command';

/**
 * `--digest HEX --rules-version HEX`: what the answer was given for, as `pending` showed it (its
 * `argumentsDigest` and `rulesVersion`). The run refuses the answer when the call's arguments or
 * rules are no longer those. `pending` prints the commands with both.
 */
export const boundAnswerOptions: Record<'digest' | 'rules-version', CliOption> = {
  digest: { type: 'string', valueName: 'HEX', description: "the arguments' digest `pending` showed (argumentsDigest): refused when the call's arguments differ" },
  'rules-version': { type: 'string', valueName: 'HEX', description: 'the rules version `pending` showed (rulesVersion): refused when the rules changed since' },
};

const hex = z.string().regex(/^[0-9a-f]{64}$/);

export function boundAnswerOf(ctx: CommandContext): { argumentsDigest?: string; rulesVersion?: string } {
  const read = (flag: string) => {
    const value = stringOption(ctx, flag);
    if (value === undefined) return undefined;
    if (!hex.safeParse(value).success) throw new UsageError(`--${flag} takes the 64 hex digits \`pending\` shows`);
    return value;
  };
  const argumentsDigest = read('digest');
  const rulesVersion = read('rules-version');
  return { ...(argumentsDigest ? { argumentsDigest } : {}), ...(rulesVersion ? { rulesVersion } : {}) };
}

/** The flags that bind an answer to a waiting call as it was listed, for the commands `pending` prints. */
export function boundFlags(call: { argumentsDigest?: string; rulesVersion?: string }): string {
  return `${call.argumentsDigest ? ` --digest ${call.argumentsDigest}` : ''}${call.rulesVersion ? ` --rules-version ${call.rulesVersion}` : ''}`;
}
