import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { EvalReport } from '../../src/eval/eval-report';
import { runCliCaptured } from '../helpers/cli-capture';
import { testAddress, testNamespace, workflowBundle } from '../helpers/temporal-env';
import { effects } from './fixtures/support-agents';
import { supportScript } from './fixtures/support-script';

const FIXTURES = join(__dirname, 'fixtures');

describe('durable-agent eval: cases as durable runs, scored on what they recorded', () => {
  let model: ScriptedModelServer;
  let dir: string;
  const evalArgs = (...args: string[]) => [
    'eval',
    ...args,
    '--address', testAddress(),
    '--namespace', testNamespace(),
    '--model-url', model.baseURL,
    '--workflow-bundle', workflowBundle().codePath,
  ];

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: supportScript() });
    dir = mkdtempSync(join(tmpdir(), 'eval-command-'));
  });
  afterAll(async () => {
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => effects.reset());

  test('a TypeScript suite: passes and failures with their reasons, waits answered, tools with effects never run, a conversation, --json and --junit', async () => {
    const junit = join(dir, 'eval.xml');
    const { code, out, err } = await runCliCaptured(evalArgs(join(FIXTURES, 'basic-suite.ts'), '--json', '--junit', junit));
    expect(code).toBe(1);
    const report = JSON.parse(out.join('\n')) as EvalReport;
    const byCase = Object.fromEntries(report.runs.map((run) => [run.case, run]));
    expect(Object.fromEntries(report.runs.map((run) => [run.case, run.passed]))).toEqual({
      'order status': true,
      'wrong answer': false,
      'refund edited': true,
      'refund denied': true,
      'label submitted': true,
      'email not run': true,
      conversation: true,
      'budget allowed': true,
      'budget unanswered': false,
      'no answer': false,
    });
    expect(byCase['wrong answer']!.expectations.filter((e) => !e.passed)).toEqual([
      { expectation: 'called lookup_order', passed: false, expected: 'a call of lookup_order', actual: 'no tool was called' },
      { expectation: 'answer includes', passed: false, expected: 'the answer includes "shipped"', actual: 'the answer is "I cannot help with: Tell me about order B-2"' },
    ]);
    expect(byCase['budget unanswered']!.error).toMatch(/^no answer for waiting call \S+ \(\$budget, \{/);
    expect(byCase['no answer']).toMatchObject({ status: 'cancelled', error: 'no answer for waiting call call_0_0 (refund, {"amount":100,"order":"G-7"})' });
    // The edited input reached the stub; the real refund never ran, nor the real email.
    expect(byCase['refund edited']!.output).toContain('refunded 40 in the eval');
    expect(effects.refunds).toEqual([]);
    expect(effects.emails).toBe(0);
    expect(byCase['email not run']!.notRun).toEqual([{ tool: 'send_email', input: { to: 'F-6', text: 'Your order' } }]);
    // Read-only tools run for real (once for 'order status', once in the conversation).
    expect(effects.lookups).toBe(2);
    expect(byCase.conversation).toMatchObject({ workflowId: expect.stringMatching(/^conversation-support-eval-/), output: 'Result: LABEL-9', iterations: 4 });
    expect(report.summary).toEqual({ cases: 10, passedCases: 7, runs: 10, passedRuns: 7 });
    expect(err.some((line) => line.startsWith('[eval] ✗ wrong answer #1 completed'))).toBe(true);

    const xml = readFileSync(junit, 'utf8');
    const testcases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)" time="[\d.]+"(\/>|>\s*<failure message="([^"]*)")/g)].map((m) => ({ name: m[2], failure: m[4] }));
    expect(testcases).toHaveLength(10);
    expect(testcases.find((t) => t.name === 'order status #1')).toEqual({ name: 'order status #1', failure: undefined });
    expect(testcases.find((t) => t.name === 'no answer #1')!.failure).toBe('no answer for waiting call call_0_0 (refund, {&quot;amount&quot;:100,&quot;order&quot;:&quot;G-7&quot;})');
    expect(xml).toMatch(/<testsuite name="[^"]*basic-suite.ts" tests="10" failures="3"/);
  });

  test('a JSON suite: the table names each case with its pass rate, then what failed and why', async () => {
    const suite = join(dir, 'suite.json');
    writeFileSync(
      suite,
      JSON.stringify({
        agents: join(FIXTURES, 'support-agents.ts'),
        cases: [
          { name: 'status', agent: 'support', turns: ['Where is order A-1?'], expect: { answer: { includes: 'shipped' } } },
          { name: 'status, wrongly expected', agent: 'support', turns: ['Where is order A-2?'], expect: { notCalled: ['lookup_order'] } },
        ],
      }),
    );
    const { code, out } = await runCliCaptured(evalArgs(suite));
    expect(code).toBe(1);
    const text = out.join('\n');
    expect(out[0]).toMatch(/^CASE\s+PASS\s+TOKENS\s+NOTES$/);
    expect(text).toMatch(/^status\s+1\.00 \(1\/1\)\s+\d+$/m);
    expect(text).toMatch(/^status, wrongly expected\s+0\.00 \(0\/1\)/m);
    expect(text).toContain('not called lookup_order: expected no call of lookup_order; got lookup_order({"id":"A-2","verbose":false})');
    expect(text).toContain('1 of 2 cases passed every run (1 of 2 runs passed).');
  });

  test('a suite that is not one is refused with the path of each mistake', async () => {
    const suite = join(dir, 'broken.json');
    writeFileSync(suite, JSON.stringify({ cases: [{ name: 'x', agent: 'support', turns: ['hi'], answers: [{ action: 'approve' }] }] }));
    const { code, err } = await runCliCaptured(evalArgs(suite, '--module', join(FIXTURES, 'support-agents.ts')));
    expect(code).toBe(1);
    expect(err.join('\n')).toContain('cases[0].answers[0]: tool is required');
    const usage = await runCliCaptured(evalArgs(suite, '--repeat', '0'));
    expect(usage.code).toBe(2);
    expect(usage.err.join('\n')).toContain('--repeat takes a positive whole number');
  });
});
