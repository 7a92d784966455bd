import { execFile, execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadAverage } from './load-average';
import { median } from './stats';
import type { SummaryRow } from './summary';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'client', 'cli', 'main.js');

export interface CliTimings {
  help: number[];
  list: number[];
  temporalList: number[];
}

function timed(file: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    execFile(file, args, { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error) return reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      resolve(performance.now() - t);
    });
  });
}

/**
 * The compiled CLI as a user runs it (a fresh process each time): `--help`, and `list` against the
 * dev server beside Temporal's own `temporal workflow list` of the same runs, alternating.
 */
export async function measureCliTimings(options: { address: string; temporalCli: string; runs: number }): Promise<CliTimings> {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.cjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const timings: CliTimings = { help: [], list: [], temporalList: [] };
  for (let i = 0; i < options.runs; i++) {
    timings.help.push(await timed(process.execPath, [CLI, '--help']));
    timings.list.push(await timed(process.execPath, [CLI, 'list', '--address', options.address, '--task-queue', 'bench']));
    timings.temporalList.push(await timed(options.temporalCli, ['workflow', 'list', '--address', options.address, '--limit', '20']));
  }
  return timings;
}

/** Prints the CLI timings and returns their rows of the final table. */
export function reportCliTimings(cli: CliTimings, runs: number): SummaryRow[] {
  const help = median(cli.help);
  const list = median(cli.list);
  console.log(`\nCLI (compiled, a fresh process each), ${runs} each, alternating; ${loadAverage()}:`);
  console.log(`  durable-agent --help:        median ${help.toFixed(0)} ms  (target < 500 ms)`);
  console.log(`  durable-agent list:          median ${list.toFixed(0)} ms  (target < 1000 ms)`);
  console.log(`  temporal workflow list:      median ${median(cli.temporalList).toFixed(0)} ms`);
  console.log(`  ratio list / temporal workflow list: ${(list / median(cli.temporalList)).toFixed(2)}`);
  const load = loadavg()[0];
  return [
    { part: 'cli', figure: 'durable-agent --help (median)', value: `${help.toFixed(0)} ms`, target: '< 500 ms', met: help < 500, load },
    { part: 'cli', figure: 'durable-agent list (median)', value: `${list.toFixed(0)} ms`, target: '< 1000 ms', met: list < 1000, load },
  ];
}
