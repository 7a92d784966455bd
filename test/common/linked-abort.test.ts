import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { linkedAbort } from '../../src/common/linked-abort';
import { sourceFiles } from '../architecture/import-graph';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** After the current job (a WeakRef keeps its target until then) and a full collection. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  return ref.deref() === undefined;
}

/** One piece of work on a linked controller, done: what it held, weakly. In a function of its own, so no frame of the test holds it. */
function workOnce(source: AbortSignal): WeakRef<object>[] {
  const linked = linkedAbort(source);
  // What the openai client and fetch do with the signal they are given.
  const request = { body: new Uint8Array(1024) };
  linked.controller.signal.addEventListener('abort', () => request.body.fill(0));
  linked.release();
  return [new WeakRef(linked.controller.signal), new WeakRef(request)];
}

describe('a controller linked to the signal its work must also stop on', () => {
  it('aborts with the source’s reason, at once when the source already has', () => {
    const source = new AbortController();
    const linked = linkedAbort(source.signal);
    source.abort('cancelled by the run');
    expect(linked.controller.signal.reason).toBe('cancelled by the run');
    expect(linkedAbort(source.signal).controller.signal.aborted).toBe(true);
    expect(linkedAbort(undefined).controller.signal.aborted).toBe(false);
  });

  it('once released, leaves nothing on the source, and its signal goes with the work even with a listener on it', async () => {
    const source = new AbortController();
    const refs = [0, 1, 2].flatMap(() => workOnce(source.signal));
    expect(getEventListeners(source.signal, 'abort')).toHaveLength(0);
    for (const ref of refs) expect(await collected(ref)).toBe(true);
    source.abort();
  });

  it('is the only way the worker combines signals: AbortSignal.any stays where the combined signal always aborts', () => {
    const src = join(__dirname, '..', '..', 'src');
    const combining = sourceFiles(src)
      .filter((file) => /AbortSignal\.any\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file))
      .sort();
    // run-stream aborts its signal when the reader stops; the webhook's includes its delivery timeout.
    expect(combining).toEqual(['activities/notify/send-webhook.ts', 'client/stream/run-stream.ts']);
  });
});
