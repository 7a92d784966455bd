import { a2aAgent } from '../../src/entries/tools';
import type { A2aHttpServer } from '../../src/a2a/serve-http';
import { defineAgent } from '../../src/toolkit/define-agent';
import { A2aKit } from '../helpers/a2a-kit';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { agents, a2aScripts } from '../fixtures/a2a-agents';

describe('a2aAgent: a remote A2A agent as a tool', () => {
  let remote: AgentTestEnv;
  let local: AgentTestEnv | undefined;
  let kit: A2aKit;
  let server: A2aHttpServer;

  beforeAll(async () => {
    // The remote side: agents on their own worker and task queue, served over A2A.
    remote = await startAgentTestEnv({ agents, byModel: a2aScripts });
    kit = new A2aKit(remote, agents);
    server = await kit.serve({ token: 'remote-token' });
  });
  afterAll(async () => {
    await local?.stop();
    await kit?.stop();
    await remote?.stop();
  });

  test("the local agent's answer holds what the remote agent said; a remote approval comes back as waiting, unanswered", async () => {
    const helperTool = a2aAgent({ url: server.agentUrls['a2a-helper']!, token: 'remote-token', description: 'Looks orders up, remotely.' });
    const refundsTool = a2aAgent({ url: `${server.agentUrls['a2a-refunds']!}.well-known/agent-card.json`, name: 'remote_refunds', token: 'remote-token' });
    expect(helperTool.name).toBe('a2a-helper');
    const caller = defineAgent({ name: 'a2a-caller', instructions: 'You ask other agents.', model: 'a2a-caller', tools: [helperTool, refundsTool] });
    local = await startAgentTestEnv({
      agents: [caller],
      byModel: {
        'a2a-caller': (_request, info) => {
          if (info.toolResults.length > 0) return `Caller heard: ${info.toolResults[0]!.content}`;
          return info.lastUserText.includes('refund')
            ? { toolCalls: [{ name: 'remote_refunds', arguments: { message: 'Refund ORD-1' } }] }
            : { toolCalls: [{ name: 'a2a-helper', arguments: { message: 'Where is ORD-1?' } }] };
        },
      },
    });

    const result = await (await local.client.start('a2a-caller', { prompt: 'Ask the helper about ORD-1' })).result();
    expect(result.output).toBe('Caller heard: Helped: ORD-1 is on its way');
    // The remote agent ran it as a task of its own, on its own side.
    const remoteRuns = await remote.client.list({ query: `WorkflowId STARTS_WITH 'a2a~a2a-helper~'` });
    expect(remoteRuns.length).toBeGreaterThan(0);

    const waiting = await (await local.client.start('a2a-caller', { prompt: 'Have the refund done' })).result();
    expect(waiting.output).toMatch(/^Caller heard: The remote agent 'a2a-refunds' has not finished: its task a2a~a2a-refunds~\S+ is input-required and waits for a person there:/);
    expect(waiting.output).toContain('Waiting for approval: refund {"order_id":"ORD-1","amount":30}');
    expect(waiting.output).toContain('This tool does not answer it');
    // The remote task still waits there, untouched; it is cancelled so nothing is left following it.
    const remoteTask = remote.client.get(/its task (\S+) is input-required/.exec(waiting.output)![1]!);
    expect((await remoteTask.state()).pending).toHaveLength(1);
    await remoteTask.cancel();
    await expect(remoteTask.result()).rejects.toThrow();
  });

  test('options are checked when the tool is made', () => {
    expect(() => a2aAgent({ url: 'not a url' })).toThrow(/a2aAgent: url: url must be an absolute http\(s\) URL/);
    expect(() => a2aAgent({ url: 'ftp://example.com/agent' })).toThrow(/url must be an http\(s\) URL/);
    expect(() => a2aAgent({ url: 'http://example.com/agents/x', name: 'bad name' })).toThrow(/Invalid tool name 'bad name'/);
  });
});
