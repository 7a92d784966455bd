import { AgentClient } from '../client/agent-client';
import { linesInput } from '../cli/cli-input';
import { formatEvent, formatSubAgentEvent } from '../text/format-event';
import { runCli } from '../cli/run-cli';
import { startScriptedModelServer } from '../testing/scripted-model-server';
import { createWorker } from '../worker/create-worker';
import { readWorkerConfig } from '../worker/config';
import { demoAgents } from './agents';
import { askYesNo } from './ask-yes-no';
import { CODER_PROMPT } from './coder-agent';
import { prepareCoderWorkspace } from './coder-workspace';
import { demoModelScript } from './demo-model-script';
import { withWrongAnswers } from './wrong-answers';
import { answered, failedChecks, reportsRefund, statesOrderStatus, type AnswerCheck } from './answer-checks';
import { describeRunFailure } from '../client/run-failure';
import { DEMO_ORDER, DEMO_PROMPT } from './ecommerce-agent';
import { RESEARCH_PROMPT } from './research-agents';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { temporalForDemo } from './temporal-for-demo';

const REFUND_ORDER = 'ORD-2024-002';
const REFUND_PROMPT = `订单 ${REFUND_ORDER} 的手机壳有裂痕，我要退款`;
/** What `--chat` says when nobody types (no terminal): a question, the order id, then a follow-up that needs the order from before. */
const CHAT_LINES = ['我的快递到哪了？', 'ORD-2024-002', '手机壳有裂痕，我要退款'];

const log = (message: string) => console.log(`[demo] ${message}`);

/**
 * DEMO_APPROVE=ask (the default on a terminal) asks y/N inline; `yes` or `no` answers at once
 * (the default without a terminal is `yes`, so an unattended `npm start` ends); `wait` leaves the
 * answer to another terminal or the Web UI.
 */
async function decide(question: string, stop: AbortSignal): Promise<boolean | undefined> {
  const mode = process.env.DEMO_APPROVE ?? (process.stdin.isTTY ? 'ask' : 'yes');
  if (mode === 'yes' || mode === 'no') {
    log(`${question} → ${mode} (DEMO_APPROVE=${mode})`);
    return mode === 'yes';
  }
  if (mode === 'wait') return undefined;
  return askYesNo(question, stop);
}

/**
 * One run, followed live, then its answer checked (see answer-checks.ts): each check is printed
 * passed or failed; the number failed is returned.
 */
async function runDemo(client: AgentClient, agent: string, prompt: string, stop: AbortSignal, checks: readonly AnswerCheck[] = [answered]): Promise<number> {
  const run = await client.start(agent, { prompt, userId: 'u-1001' });
  console.log(`\n> ${prompt}`);
  log(`run ${run.workflowId} — Web UI: ${run.webUiUrl}`);
  // The run's stream: its events (the sub-agents' indented below their start), a model call made again after its worker
  // died, a wait for the model's quota. The demo's agents do not stream, so their text deltas are not printed: each
  // reply shows in its `◀ model` line, the answer in the last.
  for await (const item of run.stream({ signal: stop })) {
    const pad = '    '.repeat(item.depth);
    if (item.type === 'model_call_restarted') console.log(`${pad}         ↻ the model call is made again (attempt ${item.attempt}); its text starts over`);
    if (item.type === 'model_quota_wait') console.log(`${pad}         ⧗ ${item.text}`);
    if (item.type !== 'event') continue;
    const { event } = item;
    console.log(item.depth > 0 ? formatSubAgentEvent(item) : formatEvent(event, run.workflowId));
    // A sub-agent's call is answered through this run too: the answer goes to the run that holds the call.
    if (event.type === 'permission_requested') {
      const yes = await decide(`Approve ${event.tool} ${JSON.stringify(event.input)}?`, stop);
      if (yes === undefined) log('Waiting for an answer from another terminal (the commands above) or the Web UI\'s Send Signal.');
      else if (yes) await run.approve(event.callId);
      else await run.deny(event.callId, 'denied at the terminal');
    }
  }
  if (stop.aborted) return 0;
  let result;
  try {
    result = await run.result();
  } catch (error) {
    log(`CHECK FAILED: ${describeRunFailure(run.workflowId, error)}`);
    return 1;
  }
  const failed = failedChecks(result, checks);
  for (const check of checks) {
    const failure = failed.find((f) => f.what === check.what);
    log(failure ? `CHECK FAILED: ${check.what}: ${failure.problem}` : `check passed: ${check.what}`);
  }
  return failed.length;
}

/**
 * `--chat`: the `chat` command on the demo's worker. On a terminal you type; otherwise it plays
 * CHAT_LINES, answers the approval as DEMO_APPROVE says (yes by default) and ends the conversation.
 */
async function chatDemo(address: string, agent: string): Promise<void> {
  const argv = ['chat', '--agent', agent, '--session', `demo-${Date.now().toString(36)}`, '--user', 'u-1001', '--address', address];
  if (process.stdin.isTTY) {
    await runCli(argv);
    return;
  }
  const answer = (process.env.DEMO_APPROVE ?? 'yes') === 'no' ? ['n', 'denied at the terminal'] : ['y'];
  const lines = [...CHAT_LINES, ...answer, '/end'];
  log(`No terminal: the conversation plays ${CHAT_LINES.length} messages (${CHAT_LINES.join(' / ')}).`);
  await runCli(argv, undefined, linesInput(lines));
}

/**
 * `npm start [-- --agent coder|research] [-- --prompt TEXT] [-- --chat]`: a real agent run on a real Temporal server,
 * followed live in the terminal.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { agent: { type: 'string' }, prompt: { type: 'string' }, chat: { type: 'boolean' }, 'local-model': { type: 'boolean' }, 'model-size': { type: 'string' } },
    strict: true,
  });
  const args = { agent: values.agent ?? 'ecommerce-cs', prompt: values.prompt, chat: values.chat === true };
  // The model the support eval chose (docs/benchmark.md); --model-size picks another of scripts/local-model.cjs.
  const localModelSize = values['local-model'] ? values['model-size'] ?? '1.5b' : undefined;
  const stop = new AbortController();
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    cleanups.length = 0;
  };
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      log('stopping what the demo started …');
      stop.abort();
      void cleanup().then(() => process.exit(code));
    });
  }

  // The worker's own progress lines (bundling, state changes) would drown the run's story.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const temporal = await temporalForDemo(log);
  cleanups.push(temporal.stop);
  log(`Temporal at ${temporal.address}; Web UI ${temporal.uiUrl}`);

  const config = readWorkerConfig();
  let modelOverrides = {};
  if (localModelSize !== undefined) {
    log(`A small open model on this machine (${localModelSize}): built and fetched into .tools/ the first time (several minutes), then served on loopback.`);
    const { startLocalModel } = require('../../scripts/local-model.cjs') as typeof import('../../scripts/local-model.cjs');
    const local = await startLocalModel({ model: localModelSize });
    cleanups.push(() => local.stop());
    // llama-server holds each reply to a call of an offered tool or an answer (its JSON-schema grammar); a reply
    // that escapes it (cut off at the token limit) is still read for a call written as text (see docs/providers.md).
    modelOverrides = { openaiBaseUrl: local.baseURL, defaultModel: local.model, textToolCallModels: ['*'], constrainedCallModels: ['*'] };
    log(`Model: ${local.model} at ${local.baseURL} (llama-server, pid ${local.pid}); it may be slow and wrong, the run stays right.`);
  } else if (!config.openaiApiKey && !config.openaiBaseUrl) {
    const scripted = await startScriptedModelServer({ script: process.env.DEMO_WRONG_ANSWERS === '1' ? withWrongAnswers(demoModelScript) : demoModelScript });
    cleanups.push(() => scripted.close());
    modelOverrides = { openaiBaseUrl: scripted.baseURL, defaultModel: 'scripted-model' };
    log('No OPENAI_API_KEY is set: the agent talks to the project\'s scripted model (a local fake, not an LLM).');
    log(`Set OPENAI_API_KEY (and OPENAI_BASE_URL, AGENT_MODEL for other providers) to use a real model.`);
    log(`More workers for this demo: AGENT_DEMO=1 OPENAI_BASE_URL=${scripted.baseURL} AGENT_MODEL=scripted-model npm run worker`);
  } else {
    log(`Model: ${config.defaultModel} at ${config.openaiBaseUrl ?? 'https://api.openai.com/v1'}`);
  }

  const worker = await createWorker({
    agents: demoAgents({ workspace: config.workspace }),
    config: { temporalAddress: temporal.address, ...modelOverrides },
  });
  const running = worker.run();
  cleanups.push(async () => {
    worker.shutdown();
    await running;
  });

  const client = await AgentClient.connect({ address: temporal.address, webUiUrl: temporal.uiUrl });
  cleanups.push(() => client.close());
  let failed = 0;
  if (args.chat) {
    await chatDemo(temporal.address, args.agent);
  } else if (args.agent === 'coder') {
    log(`The coder works on a fresh copy of the demo project: ${prepareCoderWorkspace(config.workspace)}`);
    failed += await runDemo(client, 'coder', args.prompt ?? CODER_PROMPT, stop.signal);
  } else if (args.agent === 'research') {
    log('The lead sends three researchers at once; each is a child workflow (Relationships in the Web UI), its steps indented below.');
    failed += await runDemo(client, 'research', args.prompt ?? RESEARCH_PROMPT, stop.signal);
  } else if (args.agent === 'ecommerce-cs') {
    failed += await runDemo(client, 'ecommerce-cs', args.prompt ?? DEMO_PROMPT, stop.signal, args.prompt ? [answered] : [answered, statesOrderStatus(DEMO_ORDER)]);
    if (!args.prompt) failed += await runDemo(client, 'ecommerce-cs', REFUND_PROMPT, stop.signal, [answered, reportsRefund(REFUND_ORDER)]);
  } else {
    throw new Error(`Unknown demo agent '${args.agent}': use ecommerce-cs (default), coder or research.`);
  }
  if (failed > 0) {
    // The runs ended as they should; the answers did not: said plainly, and the exit code says it too.
    log(`${failed} answer check(s) FAILED (see CHECK FAILED above): the model's answers were wrong. The runs are in the Web UI: ${temporal.uiUrl}/namespaces/default/workflows`);
    process.exitCode = 1;
  } else log(`Done. Browse the runs in the Web UI: ${temporal.uiUrl}/namespaces/default/workflows`);
  if (process.stdin.isTTY) {
    log('The server and worker keep running so the Web UI stays up; press Ctrl-C to stop them.');
    await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve()));
    return;
  }
  await cleanup();
}

main().catch((error) => {
  console.error(`[demo] failed: ${(error as Error).message}`);
  process.exit(1);
});
