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

  it('says whether an allow comes from the read-only hint or from the server configuration', () => {
    expect(mcpPermissionDecision('allow', 'x', 's', true).reason).toBe("MCP tool 'x' is read-only (server 's')");
    expect(mcpPermissionDecision('allow', 'x', 's', false).reason).toBe("MCP tool 'x' is allowed by the configuration of MCP server 's'");
  });

  it("words the ask like AgentScope", () => {
    expect(mcpPermissionDecision('ask', 'x', 's')).toEqual({
      behavior: 'ask',
      reason: "MCP tool 'x' requires explicit authorization before each call",
    });
  });
});
