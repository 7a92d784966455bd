/** A controller of one piece of work, linked to the signal it must also stop on. */
export interface LinkedAbort {
  controller: AbortController;
  /** Lets go of the source signal: call it once the work is over. */
  release(): void;
}

/**
 * A controller that also aborts (with the same reason) when `source` does. Not `AbortSignal.any`:
 * on Node 20 a combined signal that has an abort listener (the openai client, `fetch` and tools add
 * them) is held until it aborts, so every call that ended normally stayed in memory with all it
 * references (test/common/linked-abort.test.ts).
 */
export function linkedAbort(source: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  const follow = () => controller.abort(source!.reason);
  if (source?.aborted) follow();
  else source?.addEventListener('abort', follow, { once: true });
  return { controller, release: () => source?.removeEventListener('abort', follow) };
}
