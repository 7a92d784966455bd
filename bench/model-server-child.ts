// The benchmark's scripted model in a process of its own, so the bench process's CPU is the worker's and the client's alone.
// It keeps its own time: from each request's arrival (its headers read) to its response handed to the
// socket, summed, and tells it when asked (a line `served` on stdin; the answer `served <requests> <ms>`).
import { subscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { benchModelScripts } from './model-scripts';

const began = new WeakMap<ServerResponse, number>();
let requests = 0;
let servedMs = 0;
subscribe('http.server.request.start', (message) => began.set((message as { response: ServerResponse }).response, performance.now()));
subscribe('http.server.response.finish', (message) => {
  const start = began.get((message as { response: ServerResponse }).response);
  if (start === undefined) return;
  requests += 1;
  servedMs += performance.now() - start;
});

void startScriptedModelServer(benchModelScripts()).then((server) => {
  process.stdout.write(`${server.baseURL}\n`);
  let asked = '';
  process.stdin.on('data', (data: Buffer) => {
    asked += data;
    const lines = asked.split('\n');
    asked = lines.pop()!;
    for (const line of lines) if (line.trim() === 'served') process.stdout.write(`served ${requests} ${servedMs}\n`);
  });
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
});
