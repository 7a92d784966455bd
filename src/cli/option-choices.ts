import { UsageError, type CliOption } from './command';
import { didYouMean } from './did-you-mean';

/** Every value given to an option with `choices` is one of them; else a usage error that lists them and suggests the closest. */
export function checkChoices(values: Record<string, unknown>, options: Record<string, CliOption>): void {
  for (const [name, { choices }] of Object.entries(options)) {
    if (!choices) continue;
    const given = values[name];
    for (const value of Array.isArray(given) ? (given as string[]) : typeof given === 'string' ? [given] : []) {
      if (choices.includes(value)) continue;
      throw new UsageError(`Unknown value '${value}' for --${name} (one of ${choices.join(', ')}).${didYouMean(value, [...choices])}`);
    }
  }
}
