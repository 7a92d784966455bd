import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { AgentRegistry } from '../../src/toolkit/agent-registry';
import { answerJson, checkAnswer } from '../../src/toolkit/typed-answer';
import { answerOfFinalCall, finalAnswerParameters } from '../../src/common/typed-output';

describe('typed answers: the agent option, the JSON of an answer, its check', () => {
  test('defineAgent takes a schema or { schema, via, maxRetries }, with defaults, and records the JSON Schema in the description', () => {
    const schema = z.object({ city: z.string() });
    const plain = defineAgent({ name: 'plain-output', instructions: 'x', output: schema });
    expect(plain.output).toEqual({ schema, via: 'response_format', maxRetries: 2 });
    const registry = new AgentRegistry([plain, defineAgent({ name: 'text-output', instructions: 'x' })]);
    expect(registry.get('plain-output')!.descriptor.output).toEqual({
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      via: 'response_format',
      maxRetries: 2,
    });
    expect(registry.get('text-output')!.descriptor.output).toBeUndefined();
  });

  test('defineAgent refuses what cannot work, saying why', () => {
    expect(() => defineAgent({ name: 'a', instructions: 'x', output: { type: 'object' } as never })).toThrow(
      "Agent 'a': output must be a zod schema or { schema: <zod schema>, via?, maxRetries? }.",
    );
    expect(() => defineAgent({ name: 'a', instructions: 'x', output: { schema: z.string(), maxRetries: -1 } })).toThrow(
      "Agent 'a': output.maxRetries must be a whole number of at least 0.",
    );
    expect(() => defineAgent({ name: 'a', instructions: 'x', output: { schema: z.string(), via: 'grammar' as never } })).toThrow(
      "Agent 'a': output.via must be 'response_format' or 'tool'.",
    );
    const clash = defineTool({ name: 'final_answer', description: 'x', input: z.object({}), execute: () => 'x' });
    expect(() => defineAgent({ name: 'a', instructions: 'x', tools: [clash], output: { schema: z.string(), via: 'tool' } })).toThrow(/a tool is named 'final_answer'/);
  });

  test('an answer in a Markdown fence is read; prose is not JSON; an empty answer says so', () => {
    expect(answerJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(answerJson(' [1, 2] ')).toEqual({ ok: true, value: [1, 2] });
    expect(answerJson('The answer is {"a": 1}')).toEqual({ ok: false, problem: expect.stringMatching(/^the answer is not JSON \(.+\): answer with only the JSON value, no other text$/) });
    expect(answerJson('  ')).toEqual({ ok: false, problem: 'the answer is empty: answer with one JSON value of the required schema' });
  });

  test('the check keeps what the model wrote and names every wrong path; refinements count', () => {
    const schema = z.object({ from: z.string(), to: z.string(), nights: z.number().int() }).refine((trip) => trip.from !== trip.to, { message: 'from and to differ', path: ['to'] });
    expect(checkAnswer(schema, { from: 'A', to: 'B', nights: 2 })).toEqual({ ok: true, value: { from: 'A', to: 'B', nights: 2 } });
    expect(checkAnswer(schema, { from: 'A', to: 'A', nights: 2 })).toEqual({ ok: false, problems: ['/to: from and to differ'] });
    expect(checkAnswer(schema, { from: 'A', nights: 1.5 })).toEqual({ ok: false, problems: ['/to: Required', '/nights: Expected integer, received float'] });
    expect(checkAnswer(z.string(), 3)).toEqual({ ok: false, problems: ['(the answer): Expected string, received number'] });
  });

  test('a final-answer tool takes an object answer as its arguments and wraps any other shape in { answer }', () => {
    const object = { type: 'object', properties: { a: { type: 'string' } } };
    expect(finalAnswerParameters(object)).toBe(object);
    expect(answerOfFinalCall(object, { a: 'x' })).toEqual({ a: 'x' });
    const list = { type: 'array', items: { type: 'string' } };
    expect(finalAnswerParameters(list)).toEqual({ type: 'object', properties: { answer: list }, required: ['answer'], additionalProperties: false });
    expect(answerOfFinalCall(list, { answer: ['x'] })).toEqual(['x']);
  });
});
