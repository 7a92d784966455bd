import type { AgentEvent } from '../../src/common/events';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait-for';
import { lead, resetStudies, studyIntervals, subAgentScripts } from './sub-agent-agents';

const seqOf = (events: AgentEvent[], type: AgentEvent['type']) => events.find((event) => event.type === type)!.seq;

describe("a sub-agent's run forked", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [lead], byModel: subAgentScripts });
  });
  afterAll(async () => env?.stop());

  test("the fork is a top-level run of the child's agent, from the child's conversation: its messages are the child's prefix, its tool is not run again", async () => {
    resetStudies();
    const run = await env.client.start('lead', { prompt: 'Research tides and winds.', userId: 'u-42' });
    const result = await run.result();
    expect(result.output).toBe('Combined: Found: notes on tides for u-42 | Found: notes on winds for u-42');
    const started = (await run.eventsAfter(0)).find((event) => event.type === 'subagent_started' && event.task === 'tides');
    const childId = started && started.type === 'subagent_started' ? started.workflowId : '';
    const child = env.client.get(childId);
    const childResult = await child.result();
    const at = seqOf(await child.eventsAfter(0), 'tool_call_finished');
    expect(studyIntervals).toHaveLength(2);

    const fork = await child.fork({ at });
    const forked = await fork.result();
    // The child's runtime context came along (the study saw the user); the study was not run again.
    expect(forked.output).toBe('Found: notes on tides for u-42');
    expect(studyIntervals).toHaveLength(2);
    // system, the child's task, its study call, the study's result: then the fork's own answer.
    expect(forked.messages.slice(0, 4)).toEqual(childResult.messages.slice(0, 4));
    expect(forked.messages[1]).toEqual({ role: 'user', content: 'tides' });
    expect(forked.messages).toHaveLength(5);

    // A run of its own: no parent in Temporal or in its state, the child named as where it came from.
    const description = await fork.handle.describe();
    expect(description.parentExecution).toBeUndefined();
    expect(description.type).toBe('agentWorkflow');
    const state = await fork.state();
    expect(state.agent).toBe('researcher');
    expect(state.fork).toEqual({ workflowId: childId, at, agent: 'researcher' });
    expect((await fork.eventsAfter(0))[0]).toMatchObject({ type: 'run_forked', of: childId, after: at, agent: 'researcher' });
    const listed = await waitFor(async () => {
      const forks = await env.client.list({ query: `AgentForkOf = '${childId}'` });
      return forks.length === 1 ? forks : undefined;
    }, "the child's fork in visibility");
    expect(listed[0]).toMatchObject({ workflowId: fork.workflowId, agent: 'researcher', forkOf: childId });
    // The parent and its children are as they were: the top-level run has no fork.
    expect(await env.client.list({ query: `AgentForkOf = '${run.workflowId}'` })).toEqual([]);
    expect((await run.result()).output).toBe(result.output);
  });
});
