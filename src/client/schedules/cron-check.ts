import { Cron } from 'croner';

/** The nicknames Temporal's cron strings take, as croner does. */
const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

/**
 * Why `expression` is not a cron expression a schedule takes, or undefined when it is one.
 * Only the five fields (minute hour day-of-month month day-of-week) or a nickname: Temporal reads
 * six and seven fields differently from croner (a year last, seconds first), so they are refused
 * rather than understood two ways. Checked by croner before anything is sent.
 */
export function cronProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (trimmed === '') return 'cron expression is empty';
  const named = `cron expression '${expression}'`;
  if (trimmed.startsWith('@')) {
    if (NICKNAMES.has(trimmed.toLowerCase())) return undefined;
    return `${named} is not one of ${[...NICKNAMES].join(', ')} (for an interval, use \`every\`)`;
  }
  const fields = trimmed.split(/\s+/).length;
  if (fields !== 5) return `${named} has ${fields} field(s): give five (minute hour day-of-month month day-of-week), e.g. '0 9 * * 1-5'`;
  let cron: Cron;
  try {
    cron = new Cron(trimmed, { paused: true });
  } catch (error) {
    return `${named}: ${(error as Error).message.replace(/^CronPattern: /, '')}`;
  }
  if (cron.nextRun() === null) return `${named} never fires (no such date)`;
  return undefined;
}
