import { mcpPermissionDecision, mcpToolPermission } from '../../src/mcp/mcp-permission';

describe('mcpToolPermission', () => {
  it.each([
    ['readOnlyHint', { readOnlyHint: true }, undefined, 'allow'],
    ['readOnlyHint beats a server deny default', { readOnlyHint: true }, 'deny', 'allow'],
    ['destructiveHint', { readOnlyHint: false, destructiveHint: true }, 'allow', 'ask'],
    ['not read-only, destructiveness unsaid (MCP presumes destructive)', { readOnlyHint: false }, 'allow', 'ask'],
    ['neither read-only nor destructive → server default', { readOnlyHint: false, destructiveHint: false }, 'allow', 'allow'],
    ['no annotations → server default', undefined, 'deny', 'deny'],
    ['no annotations, no server default → ask', undefined, undefined, 'ask'],
    ['only a title → ask', { title: 'X' }, undefined, 'ask'],
  ] as const)('%s', (_label, annotations, serverDefault, expected) => {
    expect(mcpToolPermission(annotations, serverDefault)).toBe(expected);
  });

  it("words the ask like AgentScope", () => {
    expect(mcpPermissionDecision('ask', 'x', 's')).toEqual({
      behavior: 'ask',
      reason: "MCP tool 'x' requires explicit authorization before each call",
    });
  });
});
