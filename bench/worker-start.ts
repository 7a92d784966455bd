import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { bundleAgentWorkflows } from '../src/worker/bundle-workflows';
import { loadAverage } from './load-average';
import { median } from './stats';
import type { SummaryRow } from './summary';

export interface WorkerStartTimes {
  /** createWorker bundling the workflow code with webpack, ms per start. */
  withoutBundle: number[];
  /** createWorker given the prebuilt bundle, ms per start. */
  withBundle: number[];
  /** Making the bundle ahead of time (what `durable-agent bundle` does), ms. */
  bundleMs: number;
}

interface StartOptions {
  address: string;
  modelUrl: string;
  /** Starts of each kind, alternating. */
  starts: number;
  /** Where the bundle is written. */
  dir: string;
}

const CHILD = join(__dirname, 'worker-start-child.ts');

function startInFreshProcess(env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--require', 'tsx/cjs', CHILD], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`worker start failed: ${error.message}\n${stderr}`));
      resolve((JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number }).ms);
    });
  });
}

/**
 * Time from createWorker() to a worker ready to poll, each in a fresh process (so webpack's own
 * loading counts, as it does for a deployed worker), without and with a prebuilt bundle, alternating.
 */
export async function measureWorkerStarts(options: StartOptions): Promise<WorkerStartTimes> {
  const t = performance.now();
  const { codePath } = await bundleAgentWorkflows({ outFile: join(options.dir, 'workflow-bundle.js') });
  const bundleMs = performance.now() - t;
  const env = (n: number, bundle?: string) => ({
    BENCH_START_ADDRESS: options.address,
    BENCH_START_MODEL_URL: options.modelUrl,
    BENCH_START_TASK_QUEUE: `bench-start-${n}`,
    BENCH_START_BUNDLE: bundle ?? '',
  });
  const withoutBundle: number[] = [];
  const withBundle: number[] = [];
  for (let i = 0; i < options.starts; i++) {
    withoutBundle.push(await startInFreshProcess(env(2 * i)));
    withBundle.push(await startInFreshProcess(env(2 * i + 1, codePath)));
  }
  return { withoutBundle, withBundle, bundleMs };
}

/** Prints the worker start times and returns their rows of the final table. */
export function reportWorkerStarts(starts: WorkerStartTimes, count: number): SummaryRow[] {
  const plain = median(starts.withoutBundle);
  const prebuilt = median(starts.withBundle);
  console.log(`\nworker start (createWorker until ready, each in a fresh process), ${count} each, alternating:`);
  console.log(`  bundling the workflow code at start:  median ${plain.toFixed(0)} ms  (max ${Math.max(...starts.withoutBundle).toFixed(0)} ms)`);
  console.log(`  prebuilt bundle (durable-agent bundle): median ${prebuilt.toFixed(0)} ms  (max ${Math.max(...starts.withBundle).toFixed(0)} ms)`);
  console.log(`  ratio ${(plain / prebuilt).toFixed(1)}×; making the bundle took ${starts.bundleMs.toFixed(0)} ms; ${loadAverage()}`);
  const load = loadavg()[0];
  return [
    { part: 'start', figure: 'worker start, bundling at start (median)', value: `${plain.toFixed(0)} ms`, target: '', load },
    { part: 'start', figure: 'worker start, prebuilt bundle (median)', value: `${prebuilt.toFixed(0)} ms`, target: '', load },
  ];
}
