import { existsSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { CliCommand, CommandContext } from '../command';
import { requirePositional, stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { CONNECTION_FLAGS, connectionOverridesFromFlags } from '../connection-flags';
import { dataConverterFromFlags, encryptionKeysFromFlags } from '../encryption-flags';
import type { ConnectionOverrides } from '../../connection/connection-overrides';
import type { WorkerConfig } from '../../worker/config';
import type { AgentsModule } from '../../worker/load-agents-module';

const DETAILS = [
  'Runs a suite of cases (a JSON file, or a JavaScript or TypeScript module exporting defineEvalSuite(…)) as durable runs:',
  'by default on a Temporal dev server the command starts and stops, or on the server of --address (or TEMPORAL_ADDRESS),',
  'with a worker of its own for the agents (the suite\'s `agents` module, --module, AGENT_MODULE, or --demo) on a task',
  'queue of its own. Tools with effects (not readOnly) run only against the results the case gives them (`tools`); read-only',
  'tools run for real; MCP servers are not connected. Waiting calls are answered from the case\'s `answers`. Each run is',
  'scored on what it recorded (events and result); a table follows, or --json (the whole report) and --junit FILE.',
  'Exit 0 when every run passed; with --baseline, 0 unless a case regressed. `eval capture RUN` turns a finished run into',
  'a case that replays its tools\' recorded results (encrypted when the run is). See docs/evals.md.',
].join('\n');

/** Whether the command was pointed at a running Temporal (a connection flag or TEMPORAL_ADDRESS); else it starts its own. */
function givenConnection(values: CommandContext['values']): ConnectionOverrides | undefined {
  const flagged = Object.keys(CONNECTION_FLAGS).some((name) => values[name] !== undefined);
  return flagged || process.env.TEMPORAL_ADDRESS ? connectionOverridesFromFlags(values) : undefined;
}

function codecFromFlags(values: CommandContext['values']) {
  return () => {
    const keys = encryptionKeysFromFlags(values);
    if (!keys) return undefined;
    const { createEncryptionCodec } = require('../../codec/encryption-codec') as typeof import('../../codec/encryption-codec');
    return createEncryptionCodec(keys);
  };
}

async function agentsFor(ctx: CommandContext, suiteModule: string | undefined, workspace: string): Promise<AgentsModule> {
  const { loadCommandAgents } = require('../agents-source') as typeof import('../agents-source');
  const module = stringOption(ctx, 'module') ?? suiteModule ?? (process.env.AGENT_MODULE || undefined);
  if (module) return loadCommandAgents({ module }, workspace);
  if (ctx.values.demo === true) return loadCommandAgents({ demo: true }, workspace);
  throw new UsageError("which agents? Name the module in the suite (`agents`), or give --module PATH (or AGENT_MODULE), or --demo");
}

/** The demo agents without a model endpoint talk to the demo's scripted model, as `npm start` does. */
async function demoModel(ctx: CommandContext, worker: Partial<WorkerConfig>): Promise<{ worker: Partial<WorkerConfig>; close(): Promise<void> }> {
  if (ctx.values.demo !== true || worker.openaiBaseUrl || process.env.OPENAI_BASE_URL || process.env.OPENAI_API_KEY) return { worker, close: async () => undefined };
  const { startScriptedModelServer } = require('../../testing/scripted-model-server') as typeof import('../../testing/scripted-model-server');
  const { demoModelScript } = require('../../demo/demo-model-script') as typeof import('../../demo/demo-model-script');
  const server = await startScriptedModelServer({ script: demoModelScript });
  ctx.output.err("[eval] no model endpoint: the demo agents talk to the project's scripted model (a local fake, not an LLM)");
  return { worker: { ...worker, openaiBaseUrl: server.baseURL, defaultModel: 'scripted-model' }, close: () => server.close() };
}

/** The worker's runtime logs warnings only: an eval's output is its progress lines and report. */
function quietRuntime(): void {
  const { DefaultLogger, Runtime } = require('@temporalio/worker') as typeof import('@temporalio/worker');
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Installed already (by the program that runs the CLI): its logger stays.
  }
}

async function runSuiteCommand(ctx: CommandContext): Promise<number> {
  const { parseEvalFlags } = require('../../eval/eval-flags') as typeof import('../../eval/eval-flags');
  const parsed = parseEvalFlags(ctx.values);
  if ('problem' in parsed) throw new UsageError(parsed.problem);
  const { flags } = parsed;
  const suitePath = requirePositional(ctx, 0, 'suite file');
  if (!existsSync(suitePath)) throw new UsageError(`no such suite file: ${suitePath}`);
  const workflowBundle = stringOption(ctx, 'workflow-bundle') ?? (process.env.AGENT_WORKFLOW_BUNDLE?.trim() || undefined);
  if (workflowBundle && !existsSync(workflowBundle)) throw new UsageError(`no such workflow bundle: ${workflowBundle} (make it with \`durable-agent bundle --out ${workflowBundle}\`)`);
  const { loadSuite } = require('../../eval/load-suite') as typeof import('../../eval/load-suite');
  const { runEval } = require('../../eval/run-eval') as typeof import('../../eval/run-eval');
  const { progressLine, reportText } = require('../../eval/report-table') as typeof import('../../eval/report-table');
  const { readWorkerConfig } = require('../../worker/config') as typeof import('../../worker/config');
  const suite = await loadSuite(suitePath, codecFromFlags(ctx.values));
  const { agents } = await agentsFor(ctx, suite.agentsModule, readWorkerConfig().workspace);
  const modelUrl = stringOption(ctx, 'model-url');
  const model = await demoModel(ctx, modelUrl ? { openaiBaseUrl: modelUrl } : {});
  const connection = givenConnection(ctx.values);
  quietRuntime();
  const log = (message: string) => ctx.output.err(`[eval] ${message}`);
  // Ctrl-C or SIGTERM cancels the runs in flight and ends the worker and dev server before the CLI exits.
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let report;
  try {
    report = await runEval({
      suite,
      agents,
      ...(connection ? { connection } : {}),
      ...dataConverterFromFlags(ctx.values),
      ...(workflowBundle ? { workflowBundle } : {}),
      worker: model.worker,
      ...(flags.models ? { models: flags.models } : {}),
      repeat: flags.repeat,
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout,
      ...(flags['judge-model'] ? { judgeModel: flags['judge-model'] } : {}),
      ...(flags.baseline ? { baseline: { path: flags.baseline, threshold: flags.threshold } } : {}),
      log,
      progress: (run) => ctx.output.err(progressLine(run)),
      signal: stopped.signal,
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await model.close();
  }
  if (flags.junit) {
    const { junitXml } = require('../../eval/junit') as typeof import('../../eval/junit');
    writeFileSync(flags.junit, junitXml(report));
  }
  if (ctx.json) printJson(ctx.output, report);
  else ctx.output.out(reportText(report));
  if (report.baseline) return report.baseline.regressions.length > 0 ? 1 : 0;
  return report.runs.every((run) => run.passed) ? 0 : 1;
}

async function captureCommand(ctx: CommandContext): Promise<number> {
  const id = requirePositional(ctx, 1, 'run id (eval capture RUN)');
  const out = stringOption(ctx, 'out');
  const module = stringOption(ctx, 'module');
  const { captureRun } = require('../../eval/capture-run') as typeof import('../../eval/capture-run');
  const { suiteFileText } = require('../../eval/case-file') as typeof import('../../eval/case-file');
  const client = await ctx.connect();
  const agentsPath = module ? relative(out ? dirname(resolve(out)) : process.cwd(), resolve(module)) || module : undefined;
  const captured = await captureRun(client, id, agentsPath && !agentsPath.startsWith('.') && !agentsPath.startsWith('/') ? `./${agentsPath}` : agentsPath);
  const { text, encrypted } = await suiteFileText(captured.suite, client.client.options.loadedDataConverter);
  const what = `${captured.calls} tool call(s), ${captured.answers} answer(s)${encrypted ? ', encrypted with the run\'s key' : ''}`;
  if (out) {
    writeFileSync(out, text);
    if (ctx.json) printJson(ctx.output, { file: out, workflowId: id, agent: captured.agent, calls: captured.calls, answers: captured.answers, encrypted });
    else ctx.output.out(`Captured ${id} (agent ${captured.agent}): ${what} → ${out}`);
  } else {
    ctx.output.out(text.trimEnd());
    ctx.output.err(`Captured ${id} (agent ${captured.agent}): ${what}`);
  }
  return 0;
}

export const evalCommand: CliCommand = {
  name: 'eval',
  usage:
    'eval SUITE [--module PATH | --demo] [--models A,B] [--repeat N] [--concurrency N] [--timeout DURATION] [--judge-model NAME] ' +
    '[--baseline REPORT [--threshold X]] [--junit FILE] [--workflow-bundle FILE] [--model-url URL] [--json] | eval capture RUN [--out FILE] [--module PATH]',
  summary: 'Score agents on suites of cases run as durable runs (pass rates, judge, baseline, JUnit); capture a finished run as a case.',
  details: DETAILS,
  options: {
    module: { type: 'string', valueName: 'PATH', description: "the agents module, when the suite names none (capture: written into the case's suite)", env: 'AGENT_MODULE' },
    demo: { type: 'boolean', description: 'run the demo agents (with the scripted demo model when no model endpoint is set)' },
    models: { type: 'string', valueName: 'A,B', description: 'run every case on each of these models, side by side', defaultText: "each agent's own" },
    repeat: { type: 'string', valueName: 'N', description: 'runs of each case (per model): the report gives each case a pass rate', defaultText: '1' },
    concurrency: { type: 'string', valueName: 'N', description: 'runs at once', defaultText: '4' },
    timeout: { type: 'string', valueName: 'DURATION', description: 'how long one run may take, its waits included', defaultText: '5m' },
    'judge-model': { type: 'string', valueName: 'NAME', description: "the model that judges `judge` expectations (at the worker's OPENAI_BASE_URL)" },
    baseline: { type: 'string', valueName: 'REPORT', description: 'a previous --json report: exit 1 when a case regressed against it' },
    threshold: { type: 'string', valueName: 'X', description: 'the pass-rate drop (0 to 1) that counts as a regression', defaultText: '0.1' },
    junit: { type: 'string', valueName: 'FILE', description: 'write JUnit XML: one testcase per case × model × repeat' },
    'workflow-bundle': { type: 'string', valueName: 'FILE', description: 'a bundle made by `durable-agent bundle`, so the worker starts without webpack', env: 'AGENT_WORKFLOW_BUNDLE' },
    'model-url': { type: 'string', valueName: 'URL', description: 'the OpenAI-compatible endpoint of the agents (and the judge)', env: 'OPENAI_BASE_URL' },
    out: { type: 'string', valueName: 'FILE', description: 'capture: where the case is written (stdout otherwise)' },
  },
  examples: [
    'eval evals/support.eval.ts',
    'eval evals/support.json --module ./agents.ts --repeat 5 --junit eval.xml',
    'eval evals/support.json --json > baseline.json && durable-agent eval evals/support.json --baseline baseline.json',
    'eval evals/support.json --models gpt-4o-mini,qwen3 --judge-model gpt-4o',
    'eval capture support-ab12cd34 --out evals/refund-approved.json --module ./agents.ts',
  ],
  run(ctx) {
    return ctx.positionals[0] === 'capture' ? captureCommand(ctx) : runSuiteCommand(ctx);
  },
};
