import { createMcpInputValidator } from '../../src/mcp/mcp-input-validator';

const sumSchema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' }, note: { type: 'string' } },
  required: ['a', 'b'],
  additionalProperties: false,
  $schema: 'http://json-schema.org/draft-07/schema#',
};

describe('createMcpInputValidator', () => {
  const validate = createMcpInputValidator('get-sum', sumSchema);

  it('accepts valid input unchanged', () => {
    expect(validate({ a: 1, b: 2 })).toEqual({ ok: true, value: { a: 1, b: 2 } });
  });

  it('reports every problem with its path, in the toolkit wording', () => {
    const outcome = validate({ a: 'one', extra: true });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.message.split('\n')).toEqual([
      "Error: Parameter validation failed for tool 'get-sum':",
      '- /b: is required',
      '- /extra: is not an accepted parameter',
      '- /a: must be number',
      'Please correct the parameters and try again.',
    ]);
  });

  it('drops nulls the model sent for optional fields', () => {
    expect(validate({ a: 1, b: 2, note: null })).toEqual({ ok: true, value: { a: 1, b: 2 } });
  });

  it('rejects input that is not an object', () => {
    expect(validate([] as unknown as Record<string, unknown>)).toEqual({
      ok: false,
      message: "Error: Invalid arguments for tool 'get-sum': expected a JSON object.",
    });
  });

  it('understands draft 2020-12 schemas', () => {
    const check = createMcpInputValidator('pair', {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    });
    expect(check({ pair: ['x', 1] }).ok).toBe(true);
    expect(check({ pair: [1, 'x'] }).ok).toBe(false);
  });

  it('falls back to checking required properties when the schema does not compile', () => {
    const check = createMcpInputValidator('odd', {
      type: 'object',
      properties: { x: { $ref: '#/definitions/missing' } },
      required: ['x'],
    });
    expect(check({ x: 'anything' })).toEqual({ ok: true, value: { x: 'anything' } });
    expect(check({})).toEqual({
      ok: false,
      message: "Error: Parameter validation failed for tool 'odd':\n- /x: is required\nPlease correct the parameters and try again.",
    });
  });
});
