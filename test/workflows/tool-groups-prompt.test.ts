import type { AgentDescriptor } from '../../src/common/agent';
import type { Message } from '../../src/common/messages';
import { appendToSystem } from '../../src/common/system-addition';
import { toolGroupsPrompt } from '../../src/workflows/toolset/tool-groups-prompt';

/** What a model call gets: the groups paragraph joined to the system message (see the callModel activity). */
const withToolGroupsPrompt = (messages: Message[], agent: AgentDescriptor, active: string[]) =>
  appendToSystem(messages, toolGroupsPrompt(agent, active));

function descriptor(overrides: Partial<AgentDescriptor> = {}): AgentDescriptor {
  return {
    name: 'a',
    instructions: 'Be brief.',
    model: {},
    maxIters: 5,
    tools: [],
    groups: [
      { name: 'files', description: 'Read files.', tools: [], active: true },
      { name: 'web', description: 'Search the web.', tools: [], active: false },
    ],
    metaTool: true,
    permissions: {},
    parallel: true,
    maxResultChars: 1000,
    maxEmptyReplies: 3,
    ...overrides,
  };
}

describe('toolGroupsPrompt', () => {
  test('says when no group is active and lists what the meta tool can enable', () => {
    expect(toolGroupsPrompt(descriptor(), [])).toBe(
      [
        '## Tool groups',
        'No tool group is active.',
        'Inactive tool groups; to use one, call reset_equipped_tools with every group that should be active:',
        '- files: Read files.',
        '- web: Search the web.',
      ].join('\n'),
    );
  });

  test('is empty for an agent without groups', () => {
    expect(toolGroupsPrompt(descriptor({ groups: [] }), [])).toBe('');
  });
});

describe('withToolGroupsPrompt', () => {
  const conversation: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hi' },
  ];

  test('joins the first system message and leaves the given messages untouched', () => {
    const sent = withToolGroupsPrompt(conversation, descriptor(), ['files']);
    expect(sent[0].content).toMatch(/^Be brief\.\n\n## Tool groups\n/);
    expect(sent[1]).toBe(conversation[1]);
    expect(conversation[0].content).toBe('Be brief.');
  });

  test('adds a system message when there is none, and changes nothing without groups', () => {
    const userOnly: Message[] = [{ role: 'user', content: 'hi' }];
    expect(withToolGroupsPrompt(userOnly, descriptor(), ['web'])[0]).toMatchObject({ role: 'system' });
    expect(withToolGroupsPrompt(conversation, descriptor({ groups: [] }), [])).toBe(conversation);
  });
});
