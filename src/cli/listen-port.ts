import { stringOption, UsageError, type CommandContext } from './command';

/** The port a server command listens on, from `--<flag>` (0 picks a free one); undefined when not given. */
export function listenPortOption(ctx: CommandContext, flag: string): number | undefined {
  const text = stringOption(ctx, flag);
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--${flag} must be a port number (0 picks a free one), not '${text}'`);
  return port;
}
