import type { AgentRun } from '../../src/client/agent-run';
import { runCli } from '../../src/cli/run-cli';
import type { PartialText } from '../../src/client/partial-text';
import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { testAddress, testNamespace } from '../helpers/temporal-env';

const instructions = 'You answer at length.';
const streamingAgent = defineAgent({ name: 'slow-writer', instructions, tools: [echoTool], model: { stream: true } });
const plainAgent = defineAgent({ name: 'plain-writer', instructions, tools: [echoTool] });

// 4 characters per chunk, one chunk per 100 ms: about 3 s of streaming.
const ANSWER =
  'Durable agents keep their conversation in the workflow, so a crashed worker loses nothing; ' +
  'the stream is only shown, never recorded.';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls partialText() until the run ends; returns every text it saw. */
async function collectPartialTexts(run: AgentRun): Promise<PartialText[]> {
  let done = false;
  const finished = run.result().finally(() => {
    done = true;
  });
  const seen: PartialText[] = [];
  while (!done) {
    const partial = await run.partialText();
    if (partial) seen.push(partial);
    await sleep(100);
  }
  await finished;
  return seen;
}

function cliOutput() {
  const lines: string[] = [];
  return { lines, output: { out: (line: string) => lines.push(line), err: (line: string) => lines.push(`ERR ${line}`) } };
}

describe('the partial text of a streaming model call', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [streamingAgent, plainAgent],
      script: [ANSWER],
      modelServer: { chunkDelayMs: 100 },
    });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test('partialText() shows the text written so far, from heartbeats, without adding history events', async () => {
    const run = await env.client.start('slow-writer', { prompt: 'explain' });
    const seen = await collectPartialTexts(run);

    const growing = seen.filter((p) => p.text.length > 0 && p.text.length < ANSWER.length);
    expect(growing.length).toBeGreaterThan(0);
    for (const partial of seen) {
      expect(ANSWER.startsWith(partial.text)).toBe(true);
      expect(partial).toMatchObject({ model: 'scripted-model', iteration: 1 });
    }
    expect(await run.partialText()).toBeUndefined();

    const plain = await env.client.start('plain-writer', { prompt: 'explain' });
    await plain.result();
    const streamedHistory = await run.handle.fetchHistory();
    const plainHistory = await plain.handle.fetchHistory();
    expect(streamedHistory.events?.length).toBe(plainHistory.events?.length);
  });

  test('watch prints the text in flight line by line, between the start and the end of the call', async () => {
    const run = await env.client.start('slow-writer', { prompt: 'explain' });
    const { lines, output } = cliOutput();
    const code = await runCli(['watch', run.workflowId, '--address', testAddress(), '--namespace', testNamespace()], output);

    expect(code).toBe(0);
    const written = lines.filter((line) => line.startsWith('         │ '));
    expect(written.map((line) => line.slice('         │ '.length)).join('\n')).toBe(ANSWER);
    const started = lines.findIndex((line) => line.includes('▶ model scripted-model'));
    const finished = lines.findIndex((line) => line.includes('◀ model scripted-model'));
    expect(started).toBeLessThan(lines.indexOf(written[0]!));
    expect(finished).toBeGreaterThan(lines.indexOf(written.at(-1)!));
    expect(lines.at(-1)).toContain('■ completed');
  });

  test('watch --json prints events plus text_delta items that carry no seq; --events-only leaves them out', async () => {
    const run = await env.client.start('slow-writer', { prompt: 'explain' });
    const { lines, output } = cliOutput();
    const code = await runCli(
      ['watch', run.workflowId, '--json', '--address', testAddress(), '--namespace', testNamespace()],
      output,
    );

    expect(code).toBe(0);
    const parsed = lines.map((line) => JSON.parse(line) as { type: string; seq?: number; text?: string; iteration?: number });
    const deltas = parsed.filter((item) => item.type === 'text_delta');
    const events = parsed.filter((item) => item.type !== 'text_delta');
    expect(deltas.map((d) => d.text).join('')).toBe(ANSWER);
    expect(deltas.every((d) => d.seq === undefined && d.iteration === 1)).toBe(true);
    expect(events.every((e) => typeof e.seq === 'number')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', status: 'completed' });

    const quiet = cliOutput();
    expect(await runCli(['watch', run.workflowId, '--json', '--events-only', '--address', testAddress(), '--namespace', testNamespace()], quiet.output)).toBe(0);
    expect(quiet.lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(events.map((e) => e.type));
  });
});
