import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LiveUpdates, nextPollDelay, type LiveReading } from '../../src/inbox/live-updates';

const spacing = { fastMs: 1_000, idleMs: 5_000 };

/** A page's event stream read as it arrives; `stop` closes it as a page that goes away. */
async function follow(url: string): Promise<{ received: string[]; stop(): Promise<void> }> {
  const events = new AbortController();
  const body = (await fetch(url, { signal: events.signal })).body!.getReader();
  const received: string[] = [];
  const pump = (async () => {
    for (;;) {
      const chunk = await body.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      received.push(new TextDecoder().decode(chunk.value));
    }
  })();
  return {
    received,
    async stop() {
      events.abort();
      await pump;
    },
  };
}

describe("the inbox's live updates: polls space out while nothing changes", () => {
  test('the next wait: the fastest after a change or at first, doubled after an unchanged poll, never past the idle spacing', () => {
    expect(nextPollDelay(undefined, false, spacing)).toBe(1_000);
    expect(nextPollDelay(1_000, false, spacing)).toBe(2_000);
    expect(nextPollDelay(2_000, false, spacing)).toBe(4_000);
    expect(nextPollDelay(4_000, false, spacing)).toBe(5_000);
    expect(nextPollDelay(5_000, false, spacing)).toBe(5_000);
    expect(nextPollDelay(5_000, true, spacing)).toBe(1_000);
  });

  describe('on a real event stream', () => {
    let server: Server;
    let live: LiveUpdates;
    let reading: LiveReading = { firstPage: ['a/1'], waiting: new Set() };
    const reads: number[] = [];

    beforeAll(async () => {
      live = new LiveUpdates(async () => {
        reads.push(performance.now());
        return reading;
      }, { fastMs: 40, idleMs: 320 });
      server = createServer((_request, response) => live.listen(response));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      live.close();
      await new Promise((resolve) => server.close(resolve));
    });

    test('an unchanged list is read less and less often; a change is sent and brings the fast reads back', async () => {
      const { received, stop } = await follow(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);

      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const unchanged = reads.length;
      // Read every 40 ms the window would hold about 37 reads; spaced 40, 80, 160, 320, 320… it holds about 7.
      expect(unchanged).toBeGreaterThanOrEqual(4);
      expect(unchanged).toBeLessThanOrEqual(12);
      const gaps = reads.slice(1).map((at, i) => at - reads[i]!);
      // Spaced out to the idle spacing by the end (a timer never fires early; a loaded machine only makes gaps longer).
      expect(gaps.at(-1)!).toBeGreaterThanOrEqual(315);

      reading = { firstPage: ['a/1', 'b/2'], waiting: new Set() };
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(received.join('')).toContain('"keys":["a/1","b/2"]');
      const afterChange = reads.slice(unchanged);
      // The poll that saw the change is followed by a fast one (40 ms), not by the idle spacing (320 ms).
      const changeRead = afterChange[0]!;
      expect(afterChange[1]! - changeRead).toBeLessThan(315);

      await stop();
    });

    test("while an item page follows a call, reads stay at the fast spacing: it hears at once that the call was answered", async () => {
      const itemServer = createServer((request, response) => itemLive.listen(response, new URL(request.url!, 'http://x').searchParams.get('watch') ?? undefined));
      const itemReads: number[] = [];
      let waiting = new Set(['a/1']);
      const itemLive = new LiveUpdates(async () => {
        itemReads.push(performance.now());
        return { firstPage: [], waiting };
      }, { fastMs: 40, idleMs: 320 });
      await new Promise<void>((resolve) => itemServer.listen(0, '127.0.0.1', resolve));
      try {
        const { received, stop } = await follow(`http://127.0.0.1:${(itemServer.address() as AddressInfo).port}/?watch=a/1`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // Spaced out, a second would hold about 7 reads; at 40 ms, about 25.
        expect(itemReads.length).toBeGreaterThanOrEqual(10);
        waiting = new Set();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(received.join('')).toContain('event: gone');
        await stop();
      } finally {
        itemLive.close();
        await new Promise((resolve) => itemServer.close(resolve));
      }
    });
  });
});
