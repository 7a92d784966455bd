import { webUiUrlFor } from '../../src/client/client-config';
import { testAddress } from '../helpers/temporal-env';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';

const bigTool = defineTool({
  name: 'big_report',
  description: 'A long report.',
  input: z.object({}),
  readOnly: true,
  execute: () => 'r'.repeat(5000),
});

const reporter = defineAgent({ name: 'reporter', instructions: 'Report.', tools: [bigTool], maxResultChars: 1000 });

describe('start, result and list from the CLI; what the Web UI shows', () => {
  let env: AgentTestEnv;
  let common: string[];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [reporter] });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => env?.stop());

  test('start --json prints the id and the Web UI link; result --json prints the whole result', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'big_report', arguments: {} }] }, 'The report is long.']);
    const started = await runCliCaptured(['start', '--agent', 'reporter', '--prompt', 'Write the quarterly report please', '--user', 'u-7', '--json', ...common]);
    expect(started.code).toBe(0);
    const { workflowId, webUiUrl } = JSON.parse(started.out[0]);
    expect(workflowId).toMatch(/^reporter-/);
    // The dev server's UI port is its frontend port + 1000 unless TEMPORAL_UI_URL says otherwise.
    expect(webUiUrl).toBe(`${webUiUrlFor(testAddress())}/namespaces/default/workflows/${workflowId}/${(await env.client.get(workflowId).handle.describe()).runId}/history`);

    const result = await runCliCaptured(['result', workflowId, '--json', ...common]);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.out[0]);
    expect(parsed).toMatchObject({ status: 'completed', output: 'The report is long.', iterations: 2 });
    // A result over the agent's maxResultChars reaches the model cut, with a visible marker.
    const tool = parsed.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toBe(`${'r'.repeat(1000)}\n[... output truncated: showing the first 1000 of 5000 characters ...]`);

    const text = await runCliCaptured(['result', workflowId, ...common]);
    expect(text.code).toBe(0);
    expect(text.out.filter(Boolean)).toEqual(['The report is long.', expect.stringMatching(/^\(completed, 2 iteration\(s\), \d+ tokens\)$/)]);

    // The Web UI: the run's static summary, the activities' summaries, the current details, the search attributes.
    const handle = env.client.get(workflowId).handle;
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe('reporter: Write the quarterly report please');
    expect(description.typedSearchAttributes.get({ name: 'AgentName', type: 'KEYWORD' } as never)).toBe('reporter');
    expect(description.typedSearchAttributes.get({ name: 'AgentStatus', type: 'KEYWORD' } as never)).toBe('completed');
    const metadata = await handle.query(workflowMetadataQuery);
    expect(metadata.currentDetails).toContain('**reporter** · completed · iteration 2/10');
    const history = await handle.fetchHistory();
    const { defaultPayloadConverter } = await import('@temporalio/common');
    const summaries = history.events!.flatMap((e) => (e.userMetadata?.summary ? [defaultPayloadConverter.fromPayload<string>(e.userMetadata.summary)] : []));
    expect(summaries).toEqual(
      // The single call is checked by the activity that runs it (no 'check …' local activity).
      expect.arrayContaining(['describe agent reporter', 'model scripted-model #1', 'tool big_report', 'model scripted-model #2']),
    );
  });

  test('list shows recent runs with agent and status, filtered through visibility', async () => {
    env.model.setScript(['Nothing to do.']);
    const run = await env.client.start('reporter', { prompt: 'listed run' });
    await run.result();
    // Visibility is eventually consistent: wait until the finished run is listed as completed.
    let runs: { workflowId: string; agent: string; status: string }[] = [];
    for (let i = 0; i < 50; i++) {
      const out = await runCliCaptured(['list', '--agent', 'reporter', '--status', 'completed', '--json', ...common]);
      expect(out.code).toBe(0);
      runs = JSON.parse(out.out[0]);
      if (runs.some((r) => r.workflowId === run.workflowId)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs.find((r) => r.workflowId === run.workflowId)).toMatchObject({ agent: 'reporter', status: 'completed' });
    expect(runs.every((r) => r.agent === 'reporter' && r.status === 'completed')).toBe(true);

    const text = await runCliCaptured(['list', '--agent', 'reporter', ...common]);
    expect(text.code).toBe(0);
    // A header, and the columns aligned under it.
    expect(text.out[0]).toMatch(/^RUN +AGENT +STATUS +STARTED +CONVERSATION$/);
    const line = text.out.find((candidate) => candidate.startsWith(`${run.workflowId} `))!;
    expect(line).toMatch(new RegExp(`^${run.workflowId} +reporter +completed +\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}Z$`));
    for (const column of ['AGENT', 'STATUS', 'STARTED']) expect(text.out.slice(1).every((row) => row[text.out[0]!.indexOf(column) - 1] === ' ')).toBe(true);
  });

  test('usage errors exit 2 with the usage line', async () => {
    const missing = await runCliCaptured(['start', '--agent', 'reporter', ...common]);
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toContain('--agent and --prompt are required');
    expect((await runCliCaptured(['list', '--limit', 'ten', ...common])).code).toBe(2);
    expect((await runCliCaptured(['nonsense'])).code).toBe(2);
  });
});
