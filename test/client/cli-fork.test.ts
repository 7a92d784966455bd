import type { AgentEvent } from '../../src/common/events';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { waitFor } from '../helpers/wait-for';

const looker = defineAgent({ name: 'cli-fork-looker', instructions: 'Look things up.', tools: [lookupTool] });

const seqOf = (events: AgentEvent[], type: AgentEvent['type']) => events.find((event) => event.type === type)!.seq;

describe('durable-agent fork and list --forks-of', () => {
  let env: AgentTestEnv;
  let common: string[];
  beforeAll(async () => {
    // One lookup of the key the user named, then an answer quoting what the model read.
    env = await startAgentTestEnv({
      agents: [looker],
      script: (_request, info) =>
        info.toolResults.length > 0 ? `Read: ${info.toolResults.map((result) => result.content).join(' | ')}` : info.turnIndex === 0 ? { toolCalls: [{ name: 'lookup', arguments: { key: info.lastUserText } }] } : `You said: ${info.lastUserText}`,
    });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => env?.stop());

  test('fork ID --at SEQ --json prints the fork; the fork answers from the run\'s conversation; list --forks-of lists it with its origin', async () => {
    const run = await env.client.start('cli-fork-looker', { prompt: 'colour' });
    expect((await run.result()).output).toBe('Read: value of colour');
    const at = seqOf(await run.eventsAfter(0), 'tool_call_finished');

    const forked = await runCliCaptured(['fork', run.workflowId, '--at', String(at), '--json', ...common]);
    expect(forked.err.filter(Boolean)).toEqual([]);
    expect(forked.code).toBe(0);
    const printed = JSON.parse(forked.out.join('\n')) as { workflowId: string; webUiUrl: string; forkOf: string; at: number };
    expect(printed).toMatchObject({ forkOf: run.workflowId, at });
    expect(printed.workflowId).toMatch(new RegExp(`^${run.workflowId}-fork-`));
    expect(printed.webUiUrl).toContain(`/workflows/${encodeURIComponent(printed.workflowId)}`);
    const fork = env.client.get(printed.workflowId);
    expect((await fork.result()).output).toBe('Read: value of colour');
    expect((await fork.eventsAfter(0)).filter((event) => event.type === 'tool_call_started')).toEqual([]);

    const listed = await waitFor(async () => {
      const out = await runCliCaptured(['list', '--forks-of', run.workflowId, '--json', ...common]);
      const runs = JSON.parse(out.out.join('\n')) as { workflowId: string; forkOf?: string; agent?: string }[];
      return runs.length === 1 ? runs : undefined;
    }, 'the fork listed');
    expect(listed[0]).toMatchObject({ workflowId: printed.workflowId, forkOf: run.workflowId, agent: 'cli-fork-looker' });

    const table = await runCliCaptured(['list', '--forks-of', run.workflowId, ...common]);
    expect(table.code).toBe(0);
    expect(table.out[0]).toMatch(/^RUN +AGENT +STATUS +STARTED +CONVERSATION +FORK OF$/);
    const line = table.out.find((candidate) => candidate.startsWith(`${printed.workflowId} `))!;
    expect(line).toMatch(new RegExp(`^${printed.workflowId} +cli-fork-looker +completed +\\S+ \\S+ +${run.workflowId}$`));
  });

  test('--message and --model in text mode; a point the run does not have exits 1 with the reason, and --at must be a number', async () => {
    const run = await env.client.start('cli-fork-looker', { prompt: 'size' });
    await run.result();
    const events = await run.eventsAfter(0);
    const last = events.at(-1)!.seq;

    const edited = await runCliCaptured(['fork', run.workflowId, '--at', '0', '--message', 'weight', '--model', 'another-model', '--id', `${run.workflowId}-w`, ...common]);
    expect(edited.code).toBe(0);
    expect(edited.out[0]).toBe(`Forked ${run.workflowId} after event 0: ${run.workflowId}-w`);
    const fork = env.client.get(`${run.workflowId}-w`);
    const result = await fork.result();
    expect(result.output).toBe('Read: value of weight');
    expect(env.model.requests.filter((request) => JSON.stringify(request.body.messages).includes('weight')).map((request) => request.model)).toEqual(['another-model', 'another-model']);

    const refused = await runCliCaptured(['fork', run.workflowId, '--at', String(last + 1), ...common]);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain(`run ${run.workflowId} has no event ${last + 1}: its events go up to ${last}`);
    const usage = await runCliCaptured(['fork', run.workflowId, '--at', 'last', ...common]);
    expect(usage.code).toBe(2);
    expect(usage.err.join('\n')).toContain('--at takes the seq of an event (a whole number from 0)');
    // Only the fork that started is listed (visibility lags a start a moment: waited for).
    const forks = await waitFor(async () => {
      const found = await env.client.list({ query: `AgentForkOf = '${run.workflowId}'` });
      return found.length > 0 ? found : undefined;
    }, 'the fork listed');
    expect(forks.map((summary) => summary.workflowId)).toEqual([`${run.workflowId}-w`]);
  });
});
