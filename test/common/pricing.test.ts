import { formatCost } from '../../src/text/format-event';
import { callCost } from '../../src/common/pricing';

const usage = { promptTokens: 1_500, completionTokens: 500, totalTokens: 2_000 };

describe('callCost', () => {
  test('prices input and output tokens per million', () => {
    expect(callCost({ m: { inputPerMillion: 2, outputPerMillion: 8 } }, 'm', usage)).toBeCloseTo(0.007, 12);
  });

  test('is undefined without a table or a price for the model, even for names like "constructor"', () => {
    expect(callCost(undefined, 'm', usage)).toBeUndefined();
    expect(callCost({ other: { inputPerMillion: 1, outputPerMillion: 1 } }, 'm', usage)).toBeUndefined();
    expect(callCost({}, 'constructor', usage)).toBeUndefined();
  });
});

describe('formatCost', () => {
  test('shows at most 6 decimals without trailing zeros', () => {
    expect(formatCost(0.0456)).toBe('0.0456');
    expect(formatCost(12.5)).toBe('12.5');
    expect(formatCost(100)).toBe('100');
    expect(formatCost(0)).toBe('0');
    expect(formatCost(1e-9)).toBe('<0.000001');
  });
});
