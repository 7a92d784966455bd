import { backoffDelayMs } from '../../src/mcp/backoff';

describe('backoffDelayMs', () => {
  const options = { initialDelayMs: 1000, maxDelayMs: 60_000, factor: 2 };

  it('doubles from the initial delay and stops at the cap', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 6, 7, 20].map((attempt) => backoffDelayMs(attempt, options, middle))).toEqual([
      1000, 2000, 4000, 8000, 32_000, 60_000, 60_000,
    ]);
  });

  it('jitters by at most 20% and never beyond the cap', () => {
    expect(backoffDelayMs(1, options, () => 0)).toBe(800);
    expect(backoffDelayMs(1, options, () => 1)).toBe(1200);
    expect(backoffDelayMs(10, options, () => 1)).toBe(60_000);
  });
});
