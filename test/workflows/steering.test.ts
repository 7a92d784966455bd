import { z } from 'zod';
import type { AgentEvent } from '../../src/common/events';
import type { Message } from '../../src/common/messages';
import { RunRequestRejectedError } from '../../src/client/request-rejected';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { refundTool } from '../fixtures/approval-tools';
import { runCliCaptured } from '../helpers/cli-capture';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { testAddress, testNamespace } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

/** A tool that waits for the test: the run is inside a tool step while the test adds input. */
let releaseSlowTool: () => void = () => undefined;
let slowToolStarted: () => void = () => undefined;
const slowTool = defineTool({
  name: 'slow_lookup',
  description: 'Look something up, slowly.',
  input: z.object({}),
  readOnly: true,
  execute: async () => {
    slowToolStarted();
    await new Promise<void>((resolve) => (releaseSlowTool = resolve));
    return 'looked up';
  },
});
const slowAgent = defineAgent({ name: 'steered-slow', instructions: 'Look up, then answer.', tools: [slowTool] });

const shop = defineAgent({ name: 'steered-shop', instructions: 'Refund when asked.', tools: [refundTool], permissions: { ask: ['refund'] } });
const writer = defineAgent({ name: 'steered-writer', instructions: 'Write.', tools: [] });
const interrupting = defineAgent({ name: 'interrupted-writer', instructions: 'Write.', tools: [], steering: 'interrupt' });

const userTexts = (messages: Message[]) => messages.filter((m) => m.role === 'user').map((m) => String(m.content));
const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

/** A gate a scripted model call waits on, opened by the test. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('steering: input added to a run while it works or waits', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [shop, writer, interrupting, slowAgent] });
  });
  afterAll(async () => env?.stop());

  test('inputs added while a call waits for approval reach the next model call after the tool result, in order, once', async () => {
    env.model.setScript((_request, info) =>
      info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'S1', amount: 10 } }] } : `seen: ${info.lastUserText}`,
    );
    const run = await env.client.start('steered-shop', { prompt: 'Refund S1' });
    const { pending } = await waitForPending(run);
    expect(await run.addInput('also check the invoice')).toEqual({ position: 1, delivery: 'queued' });
    expect(await run.addInput('and only the March order', { addedBy: 'alice' })).toEqual({ position: 2, delivery: 'queued' });
    await run.approve(pending[0]!.callId);
    const result = await run.result();

    expect(result.output).toBe('seen: and only the March order');
    expect(userTexts(result.messages)).toEqual(['Refund S1', 'also check the invoice', 'and only the March order']);
    const roles = result.messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'user', 'assistant']);
    // The model call after the approval was sent both inputs; none was sent twice.
    const sent = env.model.requests.filter((r) => JSON.stringify(r.body.messages).includes('Refund S1')).map((r) => JSON.stringify(r.body.messages));
    expect(sent.at(-1)!.split('also check the invoice').length - 1).toBe(1);
    const added = ofType(await run.eventsAfter(0), 'input_added');
    expect(added.map(({ position, text, addedBy }) => ({ position, text, addedBy }))).toEqual([
      { position: 1, text: 'also check the invoice', addedBy: undefined },
      { position: 2, text: 'and only the March order', addedBy: 'alice' },
    ]);
    await maybeRecordHistory(run, 'steering-while-waiting');
  });

  test('an input added while the model writes its answer: the run does not end on that answer, the model is asked again with it', async () => {
    const first = gate();
    const requested = gate();
    env.model.setScript(async (_request, info) => {
      if (info.turnIndex === 0) {
        requested.open();
        await first.opened;
        return 'the first answer';
      }
      return `the second answer, after: ${info.lastUserText}`;
    });
    const run = await env.client.start('steered-writer', { prompt: 'Write a line' });
    await requested.opened;
    expect(await run.addInput('make it rhyme')).toEqual({ position: 1, delivery: 'queued' });
    first.open();
    const result = await run.result();
    expect(result.output).toBe('the second answer, after: make it rhyme');
    expect(result.messages.map((m) => `${m.role}:${String(m.content)}`)).toEqual([
      'system:Write.',
      'user:Write a line',
      'assistant:the first answer',
      'user:make it rhyme',
      'assistant:the second answer, after: make it rhyme',
    ]);
    expect(result.iterations).toBe(2);
  });

  test("an agent with steering: 'interrupt' cancels the model call in flight and makes it again with the input", async () => {
    const stuck = gate();
    const requested = gate();
    env.model.setScript(async (_request, info) => {
      if (info.lastUserText === 'Write a long essay') {
        requested.open();
        await stuck.opened;
        return 'the essay nobody waits for';
      }
      return `short, as asked: ${info.lastUserText}`;
    });
    const run = await env.client.start('interrupted-writer', { prompt: 'Write a long essay' });
    await requested.opened;
    expect(await run.addInput('no, one sentence')).toEqual({ position: 1, delivery: 'interrupting' });
    const result = await run.result();
    stuck.open();
    expect(result.output).toBe('short, as asked: no, one sentence');
    expect(result.messages.map((m) => `${m.role}:${String(m.content)}`)).toEqual([
      'system:Write.',
      'user:Write a long essay',
      'user:no, one sentence',
      'assistant:short, as asked: no, one sentence',
    ]);
    expect(ofType(await run.eventsAfter(0), 'model_call_interrupted')).toEqual([expect.objectContaining({ iteration: 1, inputs: 1 })]);
    await maybeRecordHistory(run, 'steering-interrupt');
  });

  test('an input added while a tool runs, when the run continues as new after that step, reaches the next run\'s model call once', async () => {
    env.model.setScript((_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'slow_lookup', arguments: {} }] } : `answered, last said: ${info.lastUserText}`));
    const started = new Promise<void>((resolve) => (slowToolStarted = resolve));
    const run = await env.client.start('steered-slow', { prompt: 'Look it up', continueAsNewAfterEvents: 5 });
    await started;
    expect(await run.addInput('and say please')).toEqual({ position: 1, delivery: 'queued' });
    releaseSlowTool();
    const result = await run.result();
    expect(result.output).toBe('answered, last said: and say please');
    expect(userTexts(result.messages)).toEqual(['Look it up', 'and say please']);
    const runs: string[] = [];
    for await (const execution of env.client.client.workflow.list({ query: `WorkflowId = '${run.workflowId}'` })) runs.push(execution.status.name);
    expect(runs).toContain('CONTINUED_AS_NEW');
    // The input's event was carried with the others, once.
    expect(ofType(await run.eventsAfter(0), 'input_added')).toHaveLength(1);
  });

  test('a run that has ended refuses input, saying so; an empty text is refused before it is sent', async () => {
    env.model.setScript(() => 'done');
    const run = await env.client.start('steered-writer', { prompt: 'Say done' });
    await run.result();
    const late = await run.addInput('one more thing').catch((error: unknown) => error);
    expect(late).toBeInstanceOf(RunRequestRejectedError);
    expect((late as Error).message).toBe(`run ${run.workflowId} has ended; it takes no more input`);
    await expect(run.addInput('')).rejects.toThrow('text must not be empty');
  });

  test('an idle conversation refuses input (a message is sent to it instead); during a turn it takes it', async () => {
    env.model.setScript((_request, info) => `you said: ${info.lastUserText}`);
    const chat = env.client.conversation('steered-writer', { sessionId: `steer-${Date.now()}` });
    expect((await chat.send('hello')).output).toBe('you said: hello');
    const refused = await env.client.get(chat.workflowId).addInput('psst').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RunRequestRejectedError);
    expect((refused as Error).message).toBe('the conversation is idle: send it a message instead');
    await chat.end();
  });

  test('durable-agent add-input sends it, with who added it', async () => {
    env.model.setScript((_request, info) =>
      info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'S2', amount: 20 } }] } : `seen: ${info.lastUserText}`,
    );
    const run = await env.client.start('steered-shop', { prompt: 'Refund S2' });
    const { pending } = await waitForPending(run);
    const connection = ['--address', testAddress(), '--namespace', testNamespace(), '--task-queue', env.taskQueue];
    const cli = await runCliCaptured(['add-input', run.workflowId, 'check the invoice too', '--as', 'bob', ...connection]);
    expect(cli).toMatchObject({ code: 0, out: ['Input 1 added: the next model call sees it.'] });
    const json = await runCliCaptured(['add-input', run.workflowId, 'thanks', '--json', ...connection]);
    expect(JSON.parse(json.out.join('\n'))).toEqual({ position: 2, delivery: 'queued' });
    await run.approve(pending[0]!.callId);
    expect((await run.result()).output).toBe('seen: thanks');
    await waitFor(async () => (ofType(await run.eventsAfter(0), 'input_added')[0]?.addedBy === 'bob' ? true : undefined), 'the event to name bob');
  });
});
