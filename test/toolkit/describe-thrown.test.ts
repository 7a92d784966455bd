import { describeThrown, MAX_THROWN_CHARS } from '../../src/toolkit/describe-thrown';

describe('describeThrown: what a thrown value shows the model', () => {
  it.each([
    [new Error('disk full'), 'disk full'],
    ['plain text', 'plain text'],
    [42, '42'],
    [null, 'null'],
    [undefined, 'undefined'],
    [{ status: 402, reason: 'payment required' }, '{"status":402,"reason":"payment required"}'],
    [[1, 'two'], '[1,"two"]'],
    [10n, '"10"'],
    [new Map([['a', 1]]), '{"a":1}'],
  ])('%p → %p', (value, expected) => {
    expect(describeThrown(value)).toBe(expected);
  });

  it('redacts fields named like secrets and key-like strings anywhere', () => {
    const text = describeThrown({ password: 'hunter22', nested: { client_secret: 'x', note: 'key sk-abcdefgh12345678 leaked' } });
    expect(text).toBe('{"password":"[redacted]","nested":{"client_secret":"[redacted]","note":"key [redacted] leaked"}}');
  });

  it('bounds what it shows', () => {
    const text = describeThrown({ blob: 'word '.repeat(2_000) });
    expect(text.length).toBeLessThan(MAX_THROWN_CHARS + 40);
    expect(text).toMatch(/… \[\d+ more characters\]$/);
  });

  it('a cycle is cut, not a reason to say nothing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(describeThrown(cyclic)).toBe('{"name":"loop","self":"[circular]"}');
  });
});
