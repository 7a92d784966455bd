import { availableParallelism, loadavg } from 'node:os';

/** The machine's 1, 5 and 15 minute load averages and core count, printed beside every ratio. */
export function loadAverage(): string {
  return `load average ${loadavg().map((value) => value.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
}
