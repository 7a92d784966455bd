import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptFunction, ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { EvalReport } from '../../src/eval/eval-report';
import { runCliCaptured } from '../helpers/cli-capture';
import { testAddress, testNamespace, workflowBundle } from '../helpers/temporal-env';
import { supportScript } from './fixtures/support-script';

const AGENTS = join(__dirname, 'fixtures', 'support-agents.ts');

/** Answers "What is 2+2?" right the first `right` times it is asked, then wrong; "Say hello" always right unless `helloBroken`. */
function arithmetic(state: { asked: number; right: number; helloBroken: boolean }): ScriptFunction {
  return (request, info) => {
    if (info.lastUserText === 'What is 2+2?') {
      state.asked += 1;
      return state.asked <= state.right ? '4' : '5';
    }
    if (info.lastUserText === 'Say hello') return state.helloBroken ? 'Go away' : 'Hello!';
    return supportScript((rubric) => (rubric.includes('garbled') ? 'Looks fine to me!' : '{"verdict": "pass", "reason": "it answers politely"}'))(request, info);
  };
}

describe('durable-agent eval: pass rates, baselines, models side by side, a judge', () => {
  let model: ScriptedModelServer;
  let dir: string;
  const state = { asked: 0, right: 2, helloBroken: false };
  const evalArgs = (...args: string[]) => ['eval', ...args, '--address', testAddress(), '--namespace', testNamespace(), '--model-url', model.baseURL, '--workflow-bundle', workflowBundle().codePath];
  const suiteFile = (name: string, cases: unknown[]) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ agents: AGENTS, cases }));
    return path;
  };
  const arithmeticSuite = () =>
    suiteFile('arithmetic.json', [
      { name: 'hello', agent: 'support', turns: ['Say hello'], expect: { answer: { includes: 'Hello' } } },
      { name: 'sum', agent: 'support', turns: ['What is 2+2?'], expect: { answer: { equals: '4' } } },
    ]);

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: arithmetic(state) });
    dir = mkdtempSync(join(tmpdir(), 'eval-rates-'));
  });
  afterAll(async () => {
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('--repeat 3 gives each case a pass rate; --baseline passes when nothing regressed and fails, naming the case, when one did', async () => {
    const suite = arithmeticSuite();
    const first = await runCliCaptured(evalArgs(suite, '--repeat', '3', '--concurrency', '3', '--json'));
    expect(first.code).toBe(1);
    const report = JSON.parse(first.out.join('\n')) as EvalReport;
    expect(report.cases.map((summary) => [summary.case, summary.passRate, summary.passed, summary.runs])).toEqual([
      ['hello', 1, 3, 3],
      ['sum', 0.67, 2, 3],
    ]);
    const failed = report.runs.find((run) => run.case === 'sum' && !run.passed)!;
    expect(failed.expectations.find((e) => !e.passed)).toMatchObject({ expected: 'the answer is "4"', actual: 'the answer is "5"' });
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, first.out.join('\n'));

    state.asked = 0;
    const same = await runCliCaptured(evalArgs(suite, '--repeat', '3', '--baseline', baseline));
    expect(same.code).toBe(0);
    const sameText = same.out.join('\n');
    expect(same.out[0]).toMatch(/^CASE\s+PASS\s+CHANGE\s+TOKENS\s+NOTES$/);
    expect(sameText).toMatch(/^sum\s+0\.67 \(2\/3\)\s+±0\.00\s+\d+/m);
    expect(sameText).toContain(`No regression against ${baseline} (threshold 0.1).`);

    state.asked = 0;
    state.helloBroken = true;
    const worse = await runCliCaptured(evalArgs(suite, '--baseline', baseline));
    expect(worse.code).toBe(1);
    const worseText = worse.out.join('\n');
    expect(worseText).toMatch(/^hello\s+0\.00 \(0\/1\)\s+-1\.00 REGRESSED/m);
    expect(worseText).toContain(`Regressions against ${baseline} (threshold 0.1):\n  hello: pass rate 1.00 → 0.00, down more than 0.1`);
    expect(worseText).not.toMatch(/^ {2}sum:/m);
    state.helloBroken = false;
  });

  test('--models a,b runs every case on each model: one column per model', async () => {
    model.setScript(() => 'Hello from a', { model: 'model-a' });
    model.setScript(() => 'Nothing to say', { model: 'model-b' });
    const suite = suiteFile('models.json', [{ name: 'hello', agent: 'support', turns: ['Say hello'], expect: { answer: { includes: 'Hello' } } }]);
    const { code, out } = await runCliCaptured(evalArgs(suite, '--models', 'model-a,model-b'));
    expect(code).toBe(1);
    expect(out[0]).toMatch(/^CASE\s+model-a\s+model-b\s+NOTES$/);
    expect(out[1]).toMatch(/^hello\s+1\.00 \(1\/1\)\s+0\.00 \(0\/1\)$/);
    expect(out.join('\n')).toContain('answer includes: expected the answer includes "Hello"; got the answer is "Nothing to say"');
    expect(model.requests.filter((request) => request.model === 'model-a' || request.model === 'model-b').map((request) => request.model).sort()).toEqual(['model-a', 'model-b']);
  });

  test('a judge: its verdict and reason in the report; a reply that does not parse is a failed judgement, not a crash', async () => {
    const suite = suiteFile('judged.json', [
      { name: 'polite', agent: 'support', turns: ['Say hello'], expect: { judge: { rubric: 'The answer greets the user politely.' } } },
      { name: 'garbled', agent: 'support', turns: ['Say hello'], expect: { judge: { rubric: 'The judge replies garbled.' } } },
    ]);
    const { code, out } = await runCliCaptured(evalArgs(suite, '--judge-model', 'judge-model', '--json'));
    expect(code).toBe(1);
    const report = JSON.parse(out.join('\n')) as EvalReport;
    const byCase = Object.fromEntries(report.runs.map((run) => [run.case, run]));
    expect(byCase.polite).toMatchObject({ passed: true, judge: { verdict: 'pass', reason: 'it answers politely' } });
    expect(byCase.garbled).toMatchObject({ passed: false, judge: { verdict: 'fail', reason: 'the judge\'s reply is not JSON: "Looks fine to me!"' } });
    const judged = model.requests.filter((request) => request.model === 'judge-model');
    expect(judged).toHaveLength(2);
    expect(JSON.stringify(judged[0]!.body.messages)).toContain('Final answer:\\nHello!');
  });
});
