import type { ChildProcess } from 'node:child_process';
import type { HeapReading } from './thread-heaps.cjs';

/** What the P3 worker process (bench/parked-worker-child.cjs) answers, by request type. */
export interface ParkedWorkerReplies {
  ready: { type: 'ready'; maxCachedWorkflows: number; workflowThreads: number };
  waiting: { type: 'waiting'; count: number };
  bareWaiting: { type: 'bareWaiting'; count: number };
  heap: { type: 'heap'; reading: HeapReading };
}

export type ParkedWorkerRequest = { type: 'waiting' } | { type: 'bareWaiting' } | { type: 'heap' } | { type: 'stop' };

/** Sends a request (none for `ready`, which the child sends by itself) and resolves with the reply of that type. */
export function requestFromChild<K extends keyof ParkedWorkerReplies>(child: ChildProcess, type: K): Promise<ParkedWorkerReplies[K]> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      cleanup();
      resolve(message as ParkedWorkerReplies[K]);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the P3 worker process exited (code ${code}) before answering '${type}'`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (type !== 'ready') child.send({ type } satisfies ParkedWorkerRequest);
  });
}
