import type { CliOption } from './command';

/** Each option given that has an `env`, as that variable's value (a boolean flag as `true`, repeated values joined with commas). */
export function flagEnvironment(values: Record<string, unknown>, options: Record<string, CliOption>): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, option] of Object.entries(options)) {
    const value = values[name];
    if (!option.env || value === undefined || value === false) continue;
    environment[option.env] = value === true ? 'true' : Array.isArray(value) ? value.join(',') : String(value);
  }
  return environment;
}
