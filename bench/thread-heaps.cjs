'use strict';
// Temporal runs workflows in a worker thread, whose V8 heap process.memoryUsage() in the main thread
// does not count. Loaded with --require, this module runs in every thread of the process (worker
// threads inherit execArgv), so each workflow thread answers a broadcast with its own heap. Plain
// JavaScript, so that a worker run from the compiled package (bench/rest-worker-child.cjs) loads it
// without a TypeScript loader in its heap.

const { BroadcastChannel, isMainThread, threadId } = require('node:worker_threads');

const CHANNEL = 'durable-agent-bench-heaps';
const GC_PASSES = 8;

function heapAfterGc() {
  if (typeof globalThis.gc !== 'function') throw new Error('global.gc is missing: start node with --expose-gc');
  // Several passes: the second frees what the first one's weak callbacks and finalizers released,
  // and V8 drops the bytecode of functions that ran in none of the last few collections (code of
  // the start and the warm-up), which a worker at rest would have dropped by then anyway.
  for (let pass = 0; pass < GC_PASSES; pass++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

if (!isMainThread) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    if (event.data === 'measure') channel.postMessage({ threadId, heapUsed: heapAfterGc() });
  };
}

/** Forces GC in every thread that loaded this module and reads each heap; waits for `threads` worker threads to answer. */
async function measureHeaps(threads, timeoutMs = 30000) {
  const channel = new BroadcastChannel(CHANNEL);
  const readings = new Map();
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${readings.size} of ${threads} workflow threads reported their heap`)), timeoutMs);
      channel.onmessage = (event) => {
        readings.set(event.data.threadId, event.data.heapUsed);
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

module.exports = { measureHeaps };
