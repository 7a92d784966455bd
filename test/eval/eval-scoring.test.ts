import { z } from 'zod';
import type { AgentEvent, AgentEventBody } from '../../src/common/events';
import { matches, mismatch } from '../../src/eval/arg-matchers';
import { compareWithBaseline } from '../../src/eval/baseline';
import { CaseTools } from '../../src/eval/case-tools';
import { summarize, type EvalRunReport } from '../../src/eval/eval-report';
import { verdictOf } from '../../src/eval/judge';
import { junitXml } from '../../src/eval/junit';
import { scoreRun } from '../../src/eval/score-case';
import { evalSuiteSchema } from '../../src/eval/suite-schema';
import { issueLines } from '../../src/eval/schema-issues';
import { defineEvalSuite } from '../../src';

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

function events(...bodies: AgentEventBody[]): AgentEvent[] {
  return bodies.map((body, index) => ({ ...body, seq: index + 1, at: new Date(0).toISOString() }) as AgentEvent);
}

function run(partial: Partial<EvalRunReport> & Pick<EvalRunReport, 'case' | 'passed'>): EvalRunReport {
  return { repeat: 1, workflowId: 'w', status: 'completed', expectations: [], notRun: [], newBehaviour: [], usage, iterations: 1, durationMs: 5, ...partial };
}

describe('argument matchers', () => {
  test('exact values, /regex/ strings, { includes } and nested objects (other keys free)', () => {
    const input = { id: 'A-17', amount: 40, tags: ['x', 'y'], address: { city: 'Lyon', zip: '69001' } };
    expect(matches({ id: 'A-17', amount: 40 }, input)).toBe(true);
    expect(matches({ id: '/^A-\\d+$/' }, input)).toBe(true);
    expect(matches({ id: '/^b-/i' }, input)).toBe(false);
    expect(matches({ address: { city: { includes: 'Ly' } } }, input)).toBe(true);
    expect(matches({ tags: ['x', 'y'] }, input)).toBe(true);
    expect(matches({ tags: ['y', 'x'] }, input)).toBe(false);
    expect(mismatch({ amount: 100 }, input)).toBe('input.amount is 40, not 100');
    expect(mismatch({ address: { zip: '/^75/' } }, input)).toBe('input.address.zip is "69001", which does not match /^75/');
    expect(mismatch({ missing: { includes: 'a' } }, input)).toBe('input.missing is undefined, which does not include "a"');
  });
});

describe('the suite schema', () => {
  test('a mistake is named by its path, with what is wrong', () => {
    const parsed = evalSuiteSchema.safeParse({
      cases: [
        { name: 'a', agent: 'support', turns: ['hi'], answers: [{ tool: 'refund', action: 'edit' }], expect: { statuss: 'completed' } },
        { name: 'a', agent: 'support', turns: [], answers: [{ action: 'submit', tool: 'x', output: 'o', when: { id: '/(/' } }] },
      ],
    });
    expect(parsed.success).toBe(false);
    const lines = issueLines((parsed as { error: z.ZodError }).error);
    expect(lines).toEqual(
      expect.arrayContaining([
        'cases[0].answers[0]: edit needs input: the arguments the call runs with',
        "cases[0].expect: Unrecognized key(s) in object: 'statuss'",
        'cases[1].turns: Array must contain at least 1 element(s)',
        expect.stringMatching(/^cases\[1\]\.answers\[0\]\.when: args\.id: \/\(\/ is not a regular expression/),
        "cases[1].name: two cases are named 'a'; names identify cases in reports and baselines",
      ]),
    );
    expect(() => defineEvalSuite({ cases: [] })).toThrow(/the eval suite is not valid:\n {2}- cases: a suite needs at least one case/);
  });
});

describe('scoring a run on its events and result', () => {
  const recorded = events(
    { type: 'iteration_started', iteration: 1 },
    { type: 'tool_call_started', callId: 'c1', tool: 'lookup_order', input: { id: 'A-1' } },
    { type: 'tool_call_finished', callId: 'c1', tool: 'lookup_order', state: 'success', durationMs: 1, preview: '' },
    { type: 'permission_requested', callId: 'c2', tool: 'refund', input: { amount: 100 }, reason: 'ask' },
    { type: 'permission_decided', callId: 'c2', tool: 'refund', behavior: 'deny', by: 'user', reason: 'no' },
  );
  const facts = { status: 'completed', output: '{"total": 3}', usage, iterations: 2, events: recorded };

  test('each failed expectation says what was expected and what happened', () => {
    const results = scoreRun(
      {
        called: [{ tool: 'refund', args: { amount: 40 } }],
        notCalled: ['lookup_order'],
        order: ['refund', 'lookup_order'],
        iterations: { max: 1 },
        tokens: { max: 10 },
        cost: { max: 1 },
        answer: { includes: 'total', schema: z.object({ total: z.string() }) },
      },
      facts,
    );
    const failed = Object.fromEntries(results.filter((result) => !result.passed).map((result) => [result.expectation, `${result.expected} | ${result.actual}`]));
    expect(failed).toEqual({
      'called refund': 'a call of refund with {"amount":40} | calls: lookup_order({"id":"A-1"}), refund({"amount":100}) denied; input.amount is 100, not 40',
      'not called lookup_order': 'no call of lookup_order | lookup_order({"id":"A-1"})',
      order: 'calls in the order refund → lookup_order | calls in the order lookup_order → refund',
      iterations: 'at most 1 iterations | 2 iterations',
      tokens: 'at most 10 tokens | 15 tokens',
      cost: 'a cost of at most 1 | no cost: the agent has no price for its model (model.prices)',
      'answer schema': 'the answer fits the schema | /total: Expected string, received number (answer "{\\"total\\": 3}")',
    });
    expect(results.find((result) => result.expectation === 'status')).toMatchObject({ passed: true });
    expect(results.find((result) => result.expectation === 'answer includes')).toMatchObject({ passed: true });
  });

  test('a JSON Schema checks the answer too; a run must complete unless the case says otherwise', () => {
    const results = scoreRun({ answer: { schema: { type: 'object', required: ['total'], properties: { total: { type: 'number' } } } } }, { ...facts, status: 'max_iterations' });
    expect(results.map((result) => [result.expectation, result.passed])).toEqual([
      ['status', false],
      ['answer schema', true],
    ]);
    expect(scoreRun({ status: 'max_iterations' }, { ...facts, status: 'max_iterations' })[0]).toMatchObject({ passed: true });
  });
});

describe('a recording answers by tool and arguments, key order aside', () => {
  test('first unused entry, then the last that fits; a call it lacks is new behaviour', () => {
    const tools = new CaseTools(undefined, [
      { tool: 'lookup_order', input: { id: 'A', verbose: false }, result: { content: 'first' } },
      { tool: 'lookup_order', input: { verbose: false, id: 'A' }, result: { content: 'second' } },
      { tool: 'refund', input: { amount: 1 }, result: { content: 'failed', isError: true } },
    ]);
    const same = (value: unknown) => value;
    expect(tools.replay('lookup_order', { id: 'A', verbose: false }, same)).toBe('first');
    expect(tools.replay('lookup_order', { verbose: false, id: 'A' }, same)).toBe('second');
    expect(tools.replay('lookup_order', { id: 'A', verbose: false }, same)).toBe('second');
    expect(tools.replay('refund', { amount: 1 }, same)).toEqual({ blocks: [{ type: 'text', text: 'failed' }], isError: true });
    expect(tools.replay('refund', { amount: 2 }, same)).toMatchObject({ isError: true });
    expect(tools.newBehaviour).toEqual([{ tool: 'refund', input: { amount: 2 } }]);
  });
});

describe('the judge reply', () => {
  test('JSON {verdict, reason} (fenced or not) is a verdict; anything else a failed judgement saying why', () => {
    expect(verdictOf('```json\n{"verdict": "pass", "reason": "polite"}\n```')).toEqual({ verdict: 'pass', reason: 'polite' });
    expect(verdictOf('I think it is fine')).toEqual({ verdict: 'fail', reason: 'the judge\'s reply is not JSON: "I think it is fine"' });
    expect(verdictOf('{"verdict": "maybe"}').reason).toMatch(/^the judge's reply is not \{"verdict": "pass"\|"fail", "reason": "…"\} \(verdict: /);
  });
});

describe('baselines and JUnit', () => {
  test('a pass rate down more than the threshold, or a case that passed and fails now, is a regression', () => {
    const cases = summarize([
      run({ case: 'steady', passed: true }),
      run({ case: 'dropped', passed: true }),
      run({ case: 'dropped', passed: false, repeat: 2 }),
      run({ case: 'new', passed: false }),
    ]);
    const baseline = { format: 'durable-agent-eval-report' as const, version: 1 as const, cases: [{ case: 'steady', runs: 1, passed: 1, passRate: 1 }, { case: 'dropped', runs: 2, passed: 2, passRate: 1 }] };
    expect(compareWithBaseline(cases, baseline, 0.1)).toEqual(['dropped: pass rate 1.00 → 0.50, down more than 0.1']);
    expect(cases.map((summary) => [summary.case, summary.baseline?.change])).toEqual([
      ['steady', 0],
      ['dropped', -0.5],
      ['new', undefined],
    ]);
    expect(compareWithBaseline(summarize([run({ case: 'steady', passed: false })]), baseline, 1)).toEqual(['steady: passed in the baseline, fails now']);
  });

  test('JUnit XML escapes what it holds', () => {
    const failed = run({ case: 'a <b> & "c"', passed: false, expectations: [{ expectation: 'answer includes', passed: false, expected: '<x>', actual: "it's" }] });
    const text = junitXml({ format: 'durable-agent-eval-report', version: 1, suite: 's.json', startedAt: 't', durationMs: 1, repeat: 1, summary: { cases: 1, passedCases: 0, runs: 1, passedRuns: 0 }, cases: summarize([failed]), runs: [failed] });
    expect(text).toContain('<testcase classname="a &lt;b&gt; &amp; &quot;c&quot;" name="a &lt;b&gt; &amp; &quot;c&quot; #1"');
    expect(text).toContain('<failure message="answer includes: expected &lt;x&gt;; got it&apos;s" type="expectation">');
  });
});
