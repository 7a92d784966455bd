import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

// Temporal runs workflows in a worker thread, whose V8 heap process.memoryUsage() in the main thread
// does not count. Loaded with --require, this module runs in every thread of the process (worker
// threads inherit execArgv), so the workflow thread answers a broadcast with its own heap.

const CHANNEL = 'durable-agent-bench-heaps';

export interface HeapReading {
  /** heapUsed of the main thread after a forced GC. */
  main: number;
  /** heapUsed of each worker thread (Temporal's workflow threads) after a forced GC. */
  threads: number[];
  total: number;
}

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('global.gc is missing: start node with --expose-gc');
  // A second pass frees what the first one's weak callbacks and finalizers released.
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

if (!isMainThread) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    if ((event as MessageEvent).data === 'measure') channel.postMessage({ threadId, heapUsed: heapAfterGc() });
  };
}

/** Forces GC in every thread that loaded this module and reads each heap; waits for `threads` worker threads to answer. */
export async function measureHeaps(threads: number, timeoutMs = 30_000): Promise<HeapReading> {
  const channel = new BroadcastChannel(CHANNEL);
  const readings = new Map<number, number>();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${readings.size} of ${threads} workflow threads reported their heap`)), timeoutMs);
      channel.onmessage = (event) => {
        const { threadId: id, heapUsed } = (event as MessageEvent).data as { threadId: number; heapUsed: number };
        readings.set(id, heapUsed);
        if (readings.size >= threads) {
          clearTimeout(timer);
          resolve();
        }
      };
      channel.postMessage('measure');
    });
  } finally {
    channel.close();
  }
  const main = heapAfterGc();
  const each = [...readings.values()];
  return { main, threads: each, total: main + each.reduce((sum, bytes) => sum + bytes, 0) };
}
