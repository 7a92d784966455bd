// One worker process of the cluster bench: the bench's worker (bench-worker.ts) on the cluster,
// with the workflow bundle from a file. argv: address, model URL, task queue, bundle file.
import { readFileSync } from 'node:fs';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { startBenchWorker } from './bench-worker';

async function main(): Promise<void> {
  const [address, modelUrl, taskQueue, bundleFile] = process.argv.slice(2) as [string, string, string, string];
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const connection = await NativeConnection.connect({ address });
  const worker = await startBenchWorker({ connection, modelUrl, taskQueue, bundle: { code: readFileSync(bundleFile, 'utf8') } });
  process.once('SIGTERM', () => void worker.stop().then(() => connection.close()).then(() => process.exit(0)));
  process.stdout.write('ready\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
