// The benchmark's scripted model in a process of its own, so the bench process's CPU is the worker's and the client's alone.
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { benchModelScripts } from './model-scripts';

void startScriptedModelServer(benchModelScripts()).then((server) => {
  process.stdout.write(`${server.baseURL}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
});
