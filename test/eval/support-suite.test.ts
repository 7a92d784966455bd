import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalReport } from '../../src/eval/eval-report';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { rightSupportAnswers } from '../../evals/support/right-answers';
import { runCliCaptured } from '../helpers/cli-capture';
import { testAddress, testNamespace, workflowBundle } from '../helpers/temporal-env';
import { codeBlockAfter } from '../package/readme-example';

const ROOT = join(__dirname, '..', '..');
const SUITE = join(ROOT, 'evals', 'support', 'support.eval.ts');

describe("the support eval (the README's first agent on four questions)", () => {
  let model: ScriptedModelServer;
  beforeAll(async () => {
    model = await startScriptedModelServer({ script: rightSupportAnswers });
  });
  afterAll(async () => model?.close());

  test("its agents module is the README's first agent, as the README shows it", () => {
    const readme = codeBlockAfter(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## A first agent');
    const module = readFileSync(join(ROOT, 'evals', 'support', 'agents.ts'), 'utf8');
    expect(module.replace(/^\/\/.*\n/gm, '').replace("from '../../src/index';", "from 'durable-agent';")).toBe(readme);
  });

  test('a model that answers right passes every case, every time: the scripted model beside the real ones', async () => {
    const args = ['eval', SUITE, '--repeat', '2', '--json', '--address', testAddress(), '--namespace', testNamespace(), '--model-url', model.baseURL, '--workflow-bundle', workflowBundle().codePath];
    const { code, out } = await runCliCaptured(args);
    const report = JSON.parse(out.join('\n')) as EvalReport;
    expect(report.runs.filter((run) => !run.passed).map((run) => [run.case, run.expectations.filter((e) => !e.passed)])).toEqual([]);
    expect(report.cases.map((summary) => [summary.case, summary.passRate])).toEqual([
      ['track an order', 1],
      ['a refund approved', 1],
      ['a refund denied', 1],
      ['an unknown order', 1],
    ]);
    expect(code).toBe(0);
  });
});
