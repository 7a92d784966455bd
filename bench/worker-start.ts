import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { bundleAgentWorkflows } from '../src/worker/bundle-workflows';

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
