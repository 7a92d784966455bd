/** One step of execution: several concurrency-safe calls together, or one call alone. */
export type Batch<T> = { parallel: boolean; items: T[] };

/**
 * Consecutive concurrency-safe items run together; every other item runs alone, in order.
 * With `parallel` off every item is its own batch.
 */
export function planBatches<T>(items: T[], isSafe: (item: T) => boolean, parallel: boolean): Batch<T>[] {
  const batches: Batch<T>[] = [];
  for (const item of items) {
    const last = batches[batches.length - 1];
    if (parallel && isSafe(item) && last?.parallel) last.items.push(item);
    else batches.push({ parallel: parallel && isSafe(item), items: [item] });
  }
  return batches;
}
