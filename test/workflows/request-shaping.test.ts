import { defineAgent } from '../../src/toolkit/define-agent';
import { addTool, echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const shapedAgent = defineAgent({
  name: 'shaped',
  instructions: 'You add numbers.',
  tools: [addTool],
  maxIters: 1,
  model: {
    temperature: 0.2,
    maxTokens: 256,
    toolChoice: 'required',
    parallelToolCalls: false,
    extraBody: { top_p: 0.9, enable_thinking: false },
  },
});

const INSTRUCTIONS = 'You help with numbers and texts.';
const groups = [
  { name: 'math', description: 'Arithmetic on integers.', tools: ['add'] },
  { name: 'text', description: 'Echo texts back.', tools: ['echo'], active: false },
];
const groupedAgent = defineAgent({ name: 'grouped', instructions: INSTRUCTIONS, tools: [addTool, echoTool], groups, metaTool: true });
const fixedGroupsAgent = defineAgent({ name: 'fixed-groups', instructions: INSTRUCTIONS, tools: [addTool, echoTool], groups });
const ungroupedAgent = defineAgent({ name: 'ungrouped', instructions: INSTRUCTIONS, tools: [addTool, echoTool] });

describe('request shaping', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [shapedAgent, groupedAgent, fixedGroupsAgent, ungroupedAgent] });
  });
  afterAll(async () => {
    await env?.stop();
  });

  const systemTextOf = (index: number, before: number) => {
    const body = env.model.requests.slice(before)[index].body;
    return body.messages[0].role === 'system' ? String(body.messages[0].content) : '';
  };

  test('temperature, maxTokens, toolChoice, parallelToolCalls and extraBody reach the request', async () => {
    env.model.setScript((request) =>
      request.tools?.length ? { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] } : 'The sum is 3.',
    );
    const before = env.model.requests.length;
    const result = await (await env.client.start('shaped', { prompt: 'add 1 and 2' })).result();
    expect(result.status).toBe('max_iterations');

    const [withTools, summary] = env.model.requests.slice(before).map((r) => r.body);
    expect(withTools).toMatchObject({
      temperature: 0.2,
      max_tokens: 256,
      tool_choice: 'required',
      parallel_tool_calls: false,
      top_p: 0.9,
      enable_thinking: false,
      stream: false,
    });
    // The summary at the iteration limit has no tools, so no tool options either.
    expect(summary.tools).toBeUndefined();
    expect(summary).not.toHaveProperty('tool_choice');
    expect(summary).not.toHaveProperty('parallel_tool_calls');
    expect(summary).toMatchObject({ temperature: 0.2, max_tokens: 256, top_p: 0.9, enable_thinking: false });
  });

  test('the system prompt lists the active groups and the ones reset_equipped_tools can enable, per call', async () => {
    env.model.setScript([
      { toolCalls: [{ name: 'reset_equipped_tools', arguments: { to_activate: ['text'] } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] },
      'Echoed.',
    ]);
    const before = env.model.requests.length;
    const result = await (await env.client.start('grouped', { prompt: 'echo hi' })).result();
    expect(result.output).toBe('Echoed.');

    expect(systemTextOf(0, before)).toBe(
      [
        INSTRUCTIONS,
        '',
        '## Tool groups',
        'Active tool groups (their tools are available now):',
        '- math: Arithmetic on integers.',
        'Inactive tool groups; to use one, call reset_equipped_tools with every group that should be active:',
        '- text: Echo texts back.',
      ].join('\n'),
    );
    const afterSwitch = systemTextOf(1, before);
    expect(afterSwitch).toContain('Active tool groups (their tools are available now):\n- text: Echo texts back.');
    expect(afterSwitch).toContain('- math: Arithmetic on integers.');
    expect(afterSwitch.indexOf('- math')).toBeGreaterThan(afterSwitch.indexOf('Inactive tool groups'));
    // Computed per call, never stored in the conversation.
    expect(result.messages[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
  });

  test('without the meta tool only the active groups are listed; without groups the prompt is unchanged', async () => {
    env.model.setScript(['Done.']);
    let before = env.model.requests.length;
    await (await env.client.start('fixed-groups', { prompt: 'hi' })).result();
    expect(systemTextOf(0, before)).toBe(
      `${INSTRUCTIONS}\n\n## Tool groups\nActive tool groups (their tools are available now):\n- math: Arithmetic on integers.`,
    );

    before = env.model.requests.length;
    await (await env.client.start('ungrouped', { prompt: 'hi' })).result();
    expect(systemTextOf(0, before)).toBe(INSTRUCTIONS);
  });
});
