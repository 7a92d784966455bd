import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../src/client/agent-client';
import { agentInput, agentStartAttributes } from './agent-start';
import { startBenchWorker, type BenchWorker } from './bench-worker';
import { ensureCompiledPackage } from './compiled-package';
import { withDeadline } from './deadline';
import { loadAverage } from './load-average';
import { mapLimit } from './map-limit';
import { processCpuMs, selfCpuMs } from './process-cpu';
import { median } from './stats';
import type { SummaryRow } from './summary';

export interface WaitingOptions {
  address: string;
  connection: NativeConnection;
  modelUrl: string;
  bundle: { code: string };
  serverPid: number;
  /** How many runs wait at once, one measurement each (BENCH_WAITING, `--waiting N`). */
  counts: number[];
  phaseTimeoutMs: number;
}

const CLI = join(__dirname, '..', 'dist', 'cli', 'main.js');
const IN_FLIGHT = 50;
const TARGET_MS = 1_000;
const TARGET_CPU_PER_SECOND = 0.05;
/** How long the CPU of an open inbox page is measured (and the idle baseline before it). */
const WINDOW_MS = 15_000;

/** The counts of `--waiting N[,N…]` or BENCH_WAITING; 1,000 and 10,000 when neither is given. */
export function waitingCounts(argv: string[], env: string | undefined): number[] {
  const flag = argv.indexOf('--waiting');
  const text = flag >= 0 ? argv[flag + 1] : env;
  const counts = (text ?? '1000,10000').split(',').map((part) => Number(part.trim()));
  if (counts.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--waiting / BENCH_WAITING takes whole numbers, e.g. 1000,10000, not '${text}'`);
  return counts;
}

function timedCli(args: string[]): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error && (error as { code?: number }).code !== 0) return reject(new Error(`durable-agent ${args.join(' ')}: ${error.message}\n${stderr}`));
      resolve({ ms: performance.now() - began, stdout });
    });
  });
}

async function startInbox(address: string, scope: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'inbox', '--port', '0', '--json', '--address', address, '--query', scope], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await withDeadline(
    new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', (code) => reject(new Error(`the inbox exited (${code}) before it listened`)));
    }),
    60_000,
    'the inbox start',
  );
  return { url, child };
}

async function timedFetch(url: string, init?: RequestInit): Promise<{ ms: number; status: number; text: string }> {
  const began = performance.now();
  const response = await fetch(url, { redirect: 'manual', ...init });
  const text = await response.text();
  return { ms: performance.now() - began, status: response.status, text };
}

/** CPU of the dev server and of this process (the worker) over a window, per second of it; the inbox's own beside. */
async function cpuPerSecond(serverPid: number, inboxPid: number, during: () => Promise<void>): Promise<{ server: number; worker: number; inbox: number }> {
  const server = processCpuMs(serverPid);
  const worker = selfCpuMs();
  const inbox = processCpuMs(inboxPid);
  await during();
  const seconds = WINDOW_MS / 1000;
  return { server: (processCpuMs(serverPid) - server) / 1000 / seconds, worker: (selfCpuMs() - worker) / 1000 / seconds, inbox: (processCpuMs(inboxPid) - inbox) / 1000 / seconds };
}

async function measureOne(options: WaitingOptions, count: number): Promise<SummaryRow[]> {
  const taskQueue = `bench-waiting-${count}`;
  const scope = `TaskQueue = '${taskQueue}'`;
  const client = await AgentClient.connect({ address: options.address, taskQueue });
  let worker: BenchWorker | undefined = await startBenchWorker({ connection: options.connection, modelUrl: options.modelUrl, taskQueue, bundle: options.bundle });
  let inbox: { url: string; child: ChildProcess } | undefined;
  try {
    const parkBegan = performance.now();
    await mapLimit(
      Array.from({ length: count }, (_, index) => `waiting-${count}-${index}`),
      IN_FLIGHT,
      (workflowId) => client.client.workflow.start('agentWorkflow', { taskQueue, workflowId, args: [agentInput('parked', 'go')], ...agentStartAttributes('parked') }),
    );
    await withDeadline(
      (async () => {
        while ((await client.countWaitingRuns(scope)) < count) await sleep(1_000);
      })(),
      options.phaseTimeoutMs,
      `parking ${count} runs`,
    );
    const parkMs = performance.now() - parkBegan;
    // The workers' caches evicted: a new worker, which has replayed nothing.
    await worker.stop();
    worker = await startBenchWorker({ connection: options.connection, modelUrl: options.modelUrl, taskQueue, bundle: options.bundle });

    let reached = 0;
    let pages = 0;
    const pagingBegan = performance.now();
    let token: string | undefined;
    do {
      const page = await client.waitingCalls({ query: scope, pageSize: 1_000, ...(token ? { pageToken: token } : {}) });
      if (page.unreadable.length > 0) throw new Error(`${page.unreadable.length} waiting runs unreadable: ${page.unreadable[0]!.unreadable.message}`);
      reached += page.calls.length;
      pages += 1;
      token = page.nextPageToken;
    } while (token);
    const pagingMs = performance.now() - pagingBegan;
    if (reached !== count) throw new Error(`paging reached ${reached} of ${count} waiting calls`);

    const pendingAll: number[] = [];
    const pendingPage: number[] = [];
    for (let i = 0; i < 3; i++) {
      const all = await timedCli(['pending', '--json', '--address', options.address, '--query', scope]);
      const listed = (JSON.parse(all.stdout) as { calls: unknown[] }).calls.length;
      if (listed !== count) throw new Error(`pending --json listed ${listed} of ${count}`);
      pendingAll.push(all.ms);
      pendingPage.push((await timedCli(['pending', '--json', '--page-size', '100', '--address', options.address, '--query', scope])).ms);
    }

    inbox = await startInbox(options.address, scope);
    const firstPage: number[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await timedFetch(`${inbox.url}/`);
      if (page.status !== 200 || !page.text.includes('data-call=')) throw new Error(`the inbox's first page answered ${page.status}`);
      firstPage.push(page.ms);
    }

    const idle = await cpuPerSecond(options.serverPid, inbox.child.pid!, () => sleep(WINDOW_MS));
    const events = new AbortController();
    const open = await cpuPerSecond(options.serverPid, inbox.child.pid!, async () => {
      const response = await fetch(`${inbox!.url}/events`, { signal: events.signal });
      const reader = response.body!.getReader();
      const reading = (async () => {
        for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
      })();
      await sleep(WINDOW_MS);
      events.abort();
      await reading;
    });
    const pageCost = open.server + open.worker - (idle.server + idle.worker);

    // The call of the run that has waited longest, answered from its page as a person would.
    const oldest = `waiting-${count}-0`;
    const state = await client.get(oldest).state();
    const callId = state.pending[0]!.callId;
    const itemUrl = `${inbox.url}/calls/${encodeURIComponent(oldest)}/${encodeURIComponent(callId)}`;
    const item = await timedFetch(itemUrl);
    const csrf = /name="csrf" value="([^"]+)"/.exec(item.text)?.[1];
    if (item.status !== 200 || !csrf) throw new Error(`the item page answered ${item.status} without a form`);
    const answer = await timedFetch(itemUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: inbox.url },
      body: new URLSearchParams({ csrf, action: 'approve' }).toString(),
    });
    if (answer.status !== 303) throw new Error(`answering from the inbox answered ${answer.status}: ${answer.text.slice(0, 200)}`);

    const load = loadavg()[0];
    console.log(`\nwaiting calls: ${count} runs parked on an approval (${(parkMs / 1000).toFixed(0)} s to park), the worker restarted (its cache empty); ${loadAverage()}`);
    console.log(`  every waiting call by visibility pages of 1,000 runs: ${reached} calls in ${pages} page(s), ${pagingMs.toFixed(0)} ms; no run asked`);
    console.log(`  pending --json (every call): median ${median(pendingAll).toFixed(0)} ms; pending --json --page-size 100: median ${median(pendingPage).toFixed(0)} ms (compiled CLI, a fresh process each)`);
    console.log(`  the inbox's first page: median ${median(firstPage).toFixed(0)} ms`);
    console.log(`  CPU per second, idle: server ${idle.server.toFixed(3)}, worker ${idle.worker.toFixed(3)}, inbox ${idle.inbox.toFixed(3)}`);
    console.log(`  CPU per second, one inbox page open: server ${open.server.toFixed(3)}, worker ${open.worker.toFixed(3)}, inbox ${open.inbox.toFixed(3)}; the page's cost to server and worker: ${pageCost.toFixed(3)} (target ≤ ${TARGET_CPU_PER_SECOND})`);
    console.log(`  answering the longest-waiting call from the inbox: item page ${item.ms.toFixed(0)} ms, approve ${answer.ms.toFixed(0)} ms`);
    return [
      { part: 'wait', figure: `pending --json, ${count} waiting (median)`, value: `${median(pendingAll).toFixed(0)} ms`, target: `≤ ${TARGET_MS} ms`, met: median(pendingAll) <= TARGET_MS, load },
      { part: 'wait', figure: `inbox first page, ${count} waiting (median)`, value: `${median(firstPage).toFixed(0)} ms`, target: `≤ ${TARGET_MS} ms`, met: median(firstPage) <= TARGET_MS, load },
      { part: 'wait', figure: `every call reachable by paging, ${count} waiting`, value: `${reached} in ${pages} page(s), ${pagingMs.toFixed(0)} ms`, target: `${count}`, met: reached === count, load },
      {
        part: 'wait',
        figure: `open inbox page: server + worker CPU-s per s, ${count} waiting`,
        value: `${pageCost.toFixed(3)} (inbox itself ${(open.inbox - idle.inbox).toFixed(3)})`,
        target: `≤ ${TARGET_CPU_PER_SECOND}`,
        met: pageCost <= TARGET_CPU_PER_SECOND,
        load,
      },
      { part: 'wait', figure: `answer one call from the inbox, ${count} waiting`, value: `${answer.ms.toFixed(0)} ms (page ${item.ms.toFixed(0)} ms)`, target: `≤ ${TARGET_MS} ms`, met: answer.ms <= TARGET_MS, load },
    ];
  } finally {
    if (inbox) {
      inbox.child.kill('SIGINT');
      await once(inbox.child, 'exit').catch(() => undefined);
    }
    await worker?.stop();
    await client.close();
  }
}

/** `--waiting N`: what listing, watching and answering waiting calls costs with N runs waiting, for each N. */
export async function measureWaitingCalls(options: WaitingOptions): Promise<SummaryRow[]> {
  ensureCompiledPackage();
  const rows: SummaryRow[] = [];
  for (const count of options.counts) rows.push(...(await measureOne(options, count)));
  return rows;
}
