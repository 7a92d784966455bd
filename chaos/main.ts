// `npm run chaos`: the project's chaos run (see docs/reliability.md).
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { chaosPassed, formatReport } from './chaos-report';
import { runChaos } from './run-chaos';

const USAGE = `npm run chaos -- [--runs N] [--steps M] [--workers K] [--kills N] [--server-restarts N] [--every MS] [--down MS] [--tool-ms MIN-MAX] [--timeout S]

N runs of M side-effecting tool steps on K worker processes (the project's worker entry point,
default settings), with workers SIGKILLed at random (each replaced) and the Temporal dev server
SIGKILLed and restarted on its database; then every run is checked against the effect ledger.
Exits 1 when a promise was broken: a run answered wrongly, an effect missing or applied twice, a
step reported failed though applied, or a WorkflowTaskFailed.

Defaults: --runs 200 --steps 5 --workers 3 --kills 3 --server-restarts 2 --every 4000 --down 2000 --tool-ms 200-1200 --timeout 900`;

function positive(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} takes a whole number of at least ${min}, not '${text}'`);
  return value;
}

function range(text: string | undefined): [number, number] {
  if (text === undefined) return [200, 1200];
  const match = /^(\d+)-(\d+)$/.exec(text);
  if (!match || Number(match[1]) > Number(match[2])) throw new Error(`--tool-ms takes MIN-MAX in milliseconds (e.g. 200-1200), not '${text}'`);
  return [Number(match[1]), Number(match[2])];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      steps: { type: 'string' },
      workers: { type: 'string' },
      kills: { type: 'string' },
      'server-restarts': { type: 'string' },
      every: { type: 'string' },
      down: { type: 'string' },
      'tool-ms': { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const report = await runChaos({
    runs: positive('runs', values.runs, 200),
    steps: positive('steps', values.steps, 5),
    workers: positive('workers', values.workers, 3),
    workerKills: positive('kills', values.kills, 3, 0),
    serverRestarts: positive('server-restarts', values['server-restarts'], 2, 0),
    everyMs: positive('every', values.every, 4000),
    downMs: positive('down', values.down, 2000, 0),
    toolMs: range(values['tool-ms']),
    timeoutMs: positive('timeout', values.timeout, 900) * 1000,
    log: (line) => console.log(line),
  });
  for (const line of formatReport(report)) console.log(line);
  return chaosPassed(report) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`chaos: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  },
);
