// `npx tsx bench/fetch-cost.ts [CALLS]`: the CPU the worker's process spends on one model call
// through the openai client, with Node's global fetch and with the keep-alive transport the worker
// uses (src/model/keep-alive-fetch.ts), in alternating batches against the bench's scripted model
// (a process of its own, so its CPU is not counted). Prints CPU per call, both, and their ratio.
import OpenAI from 'openai';
import { loadAverage } from './load-average';
import { startModelServerProcess } from './model-server-process';
import { median } from './stats';
import { keepAliveFetch } from '../src/model/keep-alive-fetch';
import { BenchModels } from './bench-agents';

const CALLS = Number(process.argv[2] ?? 400);
const BATCHES = 6;

async function cpuPerCall(client: OpenAI, calls: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    await client.chat.completions.create({ model: BenchModels.answer, messages: [{ role: 'user', content: `go ${i}` }] });
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / calls;
}

async function main(): Promise<void> {
  const model = await startModelServerProcess();
  try {
    const options = { baseURL: model.baseURL, apiKey: 'none', maxRetries: 0 };
    const clients = { global: new OpenAI(options), keepAlive: new OpenAI({ ...options, fetch: keepAliveFetch() }) };
    for (const client of Object.values(clients)) await cpuPerCall(client, 50);
    const figures = { global: [] as number[], keepAlive: [] as number[] };
    for (let batch = 0; batch < BATCHES; batch++) {
      figures.global.push(await cpuPerCall(clients.global, CALLS / BATCHES));
      figures.keepAlive.push(await cpuPerCall(clients.keepAlive, CALLS / BATCHES));
    }
    const global = median(figures.global);
    const keepAlive = median(figures.keepAlive);
    console.log(`CPU per model call (median of ${BATCHES} alternating batches of ${CALLS / BATCHES}): global fetch ${global.toFixed(3)} ms, keep-alive transport ${keepAlive.toFixed(3)} ms; ratio ${(keepAlive / global).toFixed(2)}; ${loadAverage()}`);
  } finally {
    await model.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
