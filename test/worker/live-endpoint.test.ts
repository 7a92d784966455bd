import { LiveCalls } from '../../src/activities/live-calls';
import type { LiveDelta } from '../../src/common/contracts/live-deltas';
import { readWorkerConfig } from '../../src/worker/config';
import { startLiveEndpoint } from '../../src/worker/live-endpoint';

const text = (piece: string): LiveDelta => ({ type: 'text', text: piece });

describe("the worker's live calls and their endpoint", () => {
  test('a reader gets the deltas from its position, then the new ones, then the end; an ended call is kept two minutes', () => {
    let now = 0;
    const calls = new LiveCalls(() => now);
    const writer = calls.open();
    writer.push(text('a'));
    writer.push(text('b'));
    const seen: string[] = [];
    const stop = calls.follow(writer.path, 1, { delta: (position, delta) => seen.push(`${position}:${delta.type === 'text' ? delta.text : ''}`), end: () => seen.push('end') });
    expect(stop).toBeDefined();
    writer.push(text('c'));
    writer.end();
    writer.push(text('after the end'));
    expect(seen).toEqual(['1:b', '2:c', 'end']);

    now = 119_000;
    calls.prune();
    expect(calls.follow(writer.path, 0, { delta: () => undefined, end: () => undefined })).toBeDefined();
    now = 121_000;
    calls.prune();
    expect(calls.follow(writer.path, 0, { delta: () => undefined, end: () => undefined })).toBeUndefined();
    expect(calls.follow('no-such-path', 0, { delta: () => undefined, end: () => undefined })).toBeUndefined();
  });

  test('serves a call as server-sent events from ?from or after Last-Event-ID; unknown paths are 404, a bad position 400', async () => {
    const calls = new LiveCalls();
    const endpoint = await startLiveEndpoint({ calls, host: '127.0.0.1', port: 0, codecs: [] });
    try {
      const writer = calls.open();
      for (const piece of ['one ', 'two ', 'three']) writer.push(text(piece));
      writer.end();
      const ids = (body: string) => [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
      const all = await (await fetch(`${endpoint.url}/calls/${writer.path}`)).text();
      expect(ids(all)).toEqual([0, 1, 2]);
      expect(all.trimEnd().endsWith('event: end\ndata: {}')).toBe(true);
      // The data is a payload (base64 JSON here, a codec's ciphertext where one is configured).
      const first = JSON.parse(/^data: (.+)$/m.exec(all)![1]!) as { metadata: Record<string, string>; data: string };
      expect(JSON.parse(Buffer.from(first.data, 'base64').toString())).toEqual(text('one '));
      expect(ids(await (await fetch(`${endpoint.url}/calls/${writer.path}?from=2`)).text())).toEqual([2]);
      expect(ids(await (await fetch(`${endpoint.url}/calls/${writer.path}`, { headers: { 'Last-Event-ID': '0' } })).text())).toEqual([1, 2]);
      expect((await fetch(`${endpoint.url}/calls/${'x'.repeat(32)}`)).status).toBe(404);
      expect((await fetch(`${endpoint.url}/calls/${writer.path}?from=-1`)).status).toBe(400);
      expect((await fetch(`${endpoint.url}/other`)).status).toBe(404);
    } finally {
      await endpoint.close();
    }
  });
});

describe('AGENT_LIVE_ADDRESS and AGENT_LIVE_URL', () => {
  test('default to a free loopback port; take HOST:PORT, [IPv6]:PORT, off, and an advertised URL', () => {
    expect(readWorkerConfig({}).live).toEqual({ host: '127.0.0.1', port: 0 });
    expect(readWorkerConfig({ AGENT_LIVE_ADDRESS: '0.0.0.0:7300', AGENT_LIVE_URL: 'http://worker-1.internal:7300' }).live).toEqual({
      host: '0.0.0.0',
      port: 7300,
      url: 'http://worker-1.internal:7300',
    });
    expect(readWorkerConfig({ AGENT_LIVE_ADDRESS: '[::1]:7300' }).live).toEqual({ host: '::1', port: 7300 });
    expect(readWorkerConfig({ AGENT_LIVE_ADDRESS: 'off' }).live).toEqual({ off: true });
  });

  test('refuse what is not an address or a URL, naming the variable', () => {
    expect(() => readWorkerConfig({ AGENT_LIVE_ADDRESS: '7300' })).toThrow(/AGENT_LIVE_ADDRESS=7300 is not HOST:PORT/);
    expect(() => readWorkerConfig({ AGENT_LIVE_ADDRESS: 'localhost:99999' })).toThrow(/AGENT_LIVE_ADDRESS/);
    expect(() => readWorkerConfig({ AGENT_LIVE_URL: 'worker-1:7300' })).toThrow(/AGENT_LIVE_URL=worker-1:7300 is not an http\(s\) URL/);
  });
});
