export interface HeapReading {
  /** heapUsed of the main thread after a forced GC. */
  main: number;
  /** heapUsed of each worker thread (Temporal's workflow threads) after a forced GC. */
  threads: number[];
  total: number;
}

export function measureHeaps(threads: number, timeoutMs?: number): Promise<HeapReading>;
