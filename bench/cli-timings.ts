import { execFile, execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ensureCompiledPackage } from './compiled-package';
import { loadAverage } from './load-average';
import { median } from './stats';
import type { SummaryRow } from './summary';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

export interface CliTimings {
  help: number[];
  list: number[];
  temporalList: number[];
  /** CPU ms of `require('durable-agent/client')` and of `require('durable-agent')` in a fresh process. */
  requireClient: number[];
  requireMain: number[];
}

function requireCpuMs(entry: string): number {
  const script = `const c = process.cpuUsage(); require(${JSON.stringify(entry)}); const u = process.cpuUsage(c); process.stdout.write(String((u.user + u.system) / 1000));`;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
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
  ensureCompiledPackage();
  const timings: CliTimings = { help: [], list: [], temporalList: [], requireClient: [], requireMain: [] };
  for (let i = 0; i < options.runs; i++) {
    timings.requireClient.push(requireCpuMs(join(ROOT, 'dist', 'entries', 'client.js')));
    timings.requireMain.push(requireCpuMs(join(ROOT, 'dist', 'index.js')));
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
  const temporalList = median(cli.temporalList);
  const ratio = list / temporalList;
  const client = median(cli.requireClient);
  console.log(`\nCLI (compiled, a fresh process each), ${runs} each, alternating; ${loadAverage()}:`);
  console.log(`  durable-agent --help:        median ${help.toFixed(0)} ms  (target < 100 ms)`);
  console.log(`  durable-agent list:          median ${list.toFixed(0)} ms`);
  console.log(`  temporal workflow list:      median ${temporalList.toFixed(0)} ms`);
  console.log(`  ratio list / temporal workflow list: ${ratio.toFixed(2)}  (target <= 3)`);
  console.log(`  require('durable-agent/client'): median ${client.toFixed(0)} ms of CPU; require('durable-agent'): ${median(cli.requireMain).toFixed(0)} ms`);
  const load = loadavg()[0];
  return [
    { part: 'cli', figure: 'durable-agent --help (median)', value: `${help.toFixed(0)} ms`, target: '< 100 ms', met: help < 100, load },
    { part: 'cli', figure: 'list ÷ temporal workflow list (medians)', value: `${ratio.toFixed(2)} (${list.toFixed(0)} vs ${temporalList.toFixed(0)} ms)`, target: '≤ 3', met: ratio <= 3, load },
    { part: 'cli', figure: "require('durable-agent/client'), CPU (median)", value: `${client.toFixed(0)} ms`, target: 'measured', met: true, load },
  ];
}
