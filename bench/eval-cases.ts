import { loadavg } from 'node:os';
import { rightSupportAnswers } from '../evals/support/right-answers';
import { SUPPORT_SUITE } from '../evals/local-model-eval';
import { loadSuite } from '../src/eval/load-suite';
import { runEval } from '../src/eval/run-eval';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { loadAgentsModule } from '../src/worker/load-agents-module';
import { loadAverage } from './load-average';
import type { SummaryRow } from './summary';

/**
 * `cases`: 100 cases of the support eval (its four questions, `--repeat 25`) end to end on the
 * scripted model, as `durable-agent eval` runs them: a worker of the eval's own, eight cases at
 * once, waits answered, tools stubbed, every run scored. Wall time and cases per minute.
 */
export async function measureEvalCases(options: { address: string; bundleFile: string; repeat?: number; concurrency?: number }): Promise<SummaryRow[]> {
  const repeat = options.repeat ?? 25;
  const concurrency = options.concurrency ?? 8;
  const model = await startScriptedModelServer({ script: rightSupportAnswers });
  try {
    const suite = await loadSuite(SUPPORT_SUITE, () => undefined);
    const { agents } = await loadAgentsModule(suite.agentsModule!);
    const began = performance.now();
    const cpu = process.cpuUsage();
    const report = await runEval({
      suite,
      agents,
      connection: { address: options.address },
      workflowBundle: options.bundleFile,
      worker: { openaiBaseUrl: model.baseURL, openaiApiKey: 'scripted', defaultModel: 'scripted-model' },
      repeat,
      concurrency,
      timeoutMs: 5 * 60_000,
      log: () => undefined,
    });
    const seconds = (performance.now() - began) / 1000;
    const used = process.cpuUsage(cpu);
    const { runs, passedRuns } = report.summary;
    if (passedRuns !== runs) throw new Error(`${runs - passedRuns} of ${runs} scripted cases failed: the suite or the runtime is wrong`);
    const perMinute = (60 * runs) / seconds;
    const cpuPerCase = (used.user + used.system) / 1000 / runs;
    console.log(`\nEval: ${runs} scripted cases (${suite.suite.cases.length} × --repeat ${repeat}, ${concurrency} at once) end to end in ${seconds.toFixed(1)} s: ${perMinute.toFixed(0)} cases a minute, ${cpuPerCase.toFixed(0)} ms of the eval process's CPU a case (worker and client); ${loadAverage()}`);
    return [
      { part: 'cases', figure: `${runs} scripted eval cases end to end, s`, value: seconds.toFixed(1), target: '≤ 120', met: seconds <= 120, load: loadavg()[0] },
      { part: 'cases', figure: 'scripted eval cases a minute; eval process CPU ms a case', value: `${perMinute.toFixed(0)}; ${cpuPerCase.toFixed(0)}`, target: '', load: loadavg()[0] },
    ];
  } finally {
    await model.close();
  }
}
