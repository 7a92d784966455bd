import { z } from 'zod';
import { AgentRegistry } from '../../src/toolkit/agent-registry';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { registerCodeTool } from '../../src/toolkit/from-tool';
import { applyToolFilter } from '../../src/toolkit/tool-filter';

const tool = (name: string) => defineTool({ name, description: name, input: z.object({}), execute: () => name });

describe('tool filter', () => {
  test.each([
    [{ allow: [], deny: [] }, ['fs_read', 'fs_write', 'web_search']],
    [{ allow: ['fs_*'] }, ['fs_read', 'fs_write']],
    [{ allow: ['fs_*'], deny: ['*_write'] }, ['fs_read']],
    [{ deny: ['web_*'] }, ['fs_read', 'fs_write']],
    [undefined, ['fs_read', 'fs_write', 'web_search']],
  ])('%j keeps %j (deny beats allow, an empty allow restricts nothing)', (filter, kept) => {
    expect(applyToolFilter(['fs_read', 'fs_write', 'web_search'], filter).kept).toEqual(kept);
  });

  test('an unknown name is warned about once, even across rebuilds', () => {
    const warnings: string[] = [];
    const agent = defineAgent({ name: 'a', instructions: 'x', tools: [tool('fs_read')], toolFilter: { allow: ['fs_read', 'typo_tool'] } });
    const registry = new AgentRegistry([agent], { warn: (m) => warnings.push(m) });
    registry.rebuild();
    registry.rebuild();
    expect(warnings).toEqual(["Agent 'a': tool filter pattern 'typo_tool' matches no tool."]);
    expect(registry.get('a')!.descriptor.tools.map((t) => t.name)).toEqual(['fs_read']);
  });

  test("a filter from tools.json applies together with the agent's own, after every tool is registered", () => {
    const agent = defineAgent({ name: 'b', instructions: 'x', tools: [tool('fs_read'), tool('fs_write')] });
    const registry = new AgentRegistry([agent], {
      sharedFilter: { deny: ['mcp_*'] },
      extraTools: () => [registerCodeTool(tool('mcp_x'))],
    });
    expect(registry.get('b')!.descriptor.tools.map((t) => t.name)).toEqual(['fs_read', 'fs_write']);
  });

  test('registering two tools with one name is an error, never a silent replacement', () => {
    expect(() => new AgentRegistry([defineAgent({ name: 'd', instructions: 'x', tools: [tool('same'), tool('same')] })])).toThrow(
      /Tool name 'same' is already registered/,
    );
  });

  test('a group naming an unknown tool fails at worker start', () => {
    const agent = defineAgent({ name: 'e', instructions: 'x', tools: [tool('t1')], groups: [{ name: 'g', description: 'g', tools: ['t2'] }] });
    expect(() => new AgentRegistry([agent])).toThrow("Agent 'e': group 'g' names unknown tools: t2.");
  });
});
