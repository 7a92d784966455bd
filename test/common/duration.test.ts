import { durationMs, durationProblem } from '../../src/common/duration';

describe("durations: one grammar (Temporal's ms) everywhere", () => {
  it.each([
    [3000, 3000],
    ['3000', 3000],
    ['500ms', 500],
    ['30s', 30_000],
    ['1.5m', 90_000],
    ['1h', 3_600_000],
    ['2 hours', 7_200_000],
    ['1d', 86_400_000],
    ['10 days', 864_000_000],
  ])('%p → %p ms', (input, expected) => {
    expect(durationMs(input)).toBe(expected);
  });

  it.each([['soon'], [0], [-5], ['-1s'], ['0'], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [{}]])('refuses %p', (input) => {
    expect(durationMs(input)).toBeUndefined();
  });

  it('names the setting and the value it refuses, with examples', () => {
    expect(durationProblem('timeout', 'soon')).toBe(`timeout "soon" is not a duration (e.g. '30s', '5 minutes', '2 hours', '1d' or milliseconds; more than zero)`);
    expect(durationProblem('timeout', '2 hours')).toBeUndefined();
    expect(durationProblem('timeout', undefined)).toBeUndefined();
  });
});
