import { earliestStart, emptyBook, grant, MINUTE_MS, pauseUntil, prune, recordUsage, WINDOW_MS } from '../../src/workflows/quota/quota-schedule';

/** The most grants any minute-long window (start excluded, end included) holds. */
function busiestMinute(starts: number[]): number {
  return Math.max(...starts.map((end) => starts.filter((at) => at > end - MINUTE_MS && at <= end).length));
}

describe("a model's quota schedule", () => {
  test('requests per minute: calls asked for at once are spaced 1/rpm of 61 s apart, so no minute holds more than rpm even when each starts up to a second late', () => {
    const book = emptyBook();
    const starts = Array.from({ length: 200 }, () => grant(book, 0, 10, { requestsPerMinute: 60 }).at);
    expect(starts.slice(0, 3)).toEqual([0, WINDOW_MS / 60, (2 * WINDOW_MS) / 60]);
    expect(busiestMinute(starts)).toBe(60);
    // Each call late by a different part of a second: still at most 60 in any minute.
    expect(busiestMinute(starts.map((at, i) => at + ((i * 7919) % 1000)))).toBeLessThanOrEqual(60);
    expect(starts.at(-1)).toBeCloseTo((199 * WINDOW_MS) / 60, 6);
  });

  test('a limit lowered between calls still holds within the minute before each new call', () => {
    const book = emptyBook();
    for (let i = 0; i < 30; i++) grant(book, 0, 10, { requestsPerMinute: 600 });
    // 30 grants in the first 3 s; at 10 per minute the next waits until the 10th-newest has left the window.
    const next = grant(book, 3_000, 10, { requestsPerMinute: 10 }).at;
    expect(next).toBe(book.grants[book.grants.length - 11]!.at + WINDOW_MS);
  });

  test('tokens per minute: a call waits until the minute before it has room for its tokens; a report of fewer tokens makes room', () => {
    const book = emptyBook();
    const limits = { tokensPerMinute: 3_000 };
    expect(grant(book, 0, 1_000, limits).at).toBe(0);
    expect(grant(book, 100, 1_000, limits).at).toBe(100);
    expect(grant(book, 200, 500, limits).at).toBe(200);
    // 2,500 of 3,000 taken: the fourth starts when the first leaves the window.
    expect(earliestStart(book, 300, 1_000, limits)).toBe(WINDOW_MS);
    recordUsage(book, { at: 0, estimated: 1_000, used: 400 });
    expect(earliestStart(book, 300, 1_000, limits)).toBe(300);
    // A call larger than the whole limit waits for a minute with nothing else in it.
    expect(earliestStart(book, 300, 9_000, limits)).toBe(200 + WINDOW_MS);
  });

  test('a pause (a 429) moves every later start past it; grants older than a minute are forgotten', () => {
    const book = emptyBook();
    grant(book, 0, 1, { requestsPerMinute: 600 });
    pauseUntil(book, 5_000);
    pauseUntil(book, 2_000);
    expect(grant(book, 100, 1, { requestsPerMinute: 600 }).at).toBe(5_000);
    expect(grant(book, 100, 1, { requestsPerMinute: 600 })).toEqual({ at: 5_000 + WINDOW_MS / 600, ahead: 1 });
    prune(book, 5_200 + WINDOW_MS);
    expect(book.grants).toEqual([]);
  });
});
