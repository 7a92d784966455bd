import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpCallResult, McpManager } from '../../src/mcp/mcp-types';
import { toToolResult } from '../../src/toolkit/tool-result';
import { fakeToolContext } from './helpers/tool-context';

const TEN_MB = 10 * 1024 * 1024;
const LIMIT = 30_000;

/** A server whose one tool answers with whatever the test gives it. */
function managerAnswering(result: McpCallResult): Pick<McpManager, 'tools' | 'callTool'> {
  return {
    tools: () => [{ server: 'big', name: 'dump', inputSchema: { type: 'object', properties: {} } }],
    callTool: async () => result,
  };
}

/** As executeTool runs an MCP tool: its RichToolResult goes through toToolResult. */
async function runDump(result: McpCallResult) {
  const [tool] = mcpRegisteredTools(managerAnswering(result), {
    takenNames: () => false,
    servers: { big: { transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: {}, prefix: false } },
  });
  return toToolResult(await tool.execute!({}, fakeToolContext()), LIMIT);
}

describe('huge MCP results are bounded like any rich result', () => {
  it('10 MB of image, audio, embedded resource and text: each replaced by a marker, the text cut', async () => {
    const result = await runDump({
      content: [
        { type: 'image', data: 'A'.repeat(TEN_MB), mimeType: 'image/png' },
        { type: 'audio', data: 'B'.repeat(TEN_MB), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///huge.log', mimeType: 'text/plain', text: 'l'.repeat(TEN_MB) } },
        { type: 'text', text: 'x'.repeat(TEN_MB) },
      ],
    });
    expect(result.content).toBe(`${'x'.repeat(LIMIT)}\n[... output truncated: showing the first ${LIMIT} of ${TEN_MB} characters ...]`);
    const omitted = (type: string) => ({
      type: 'text',
      text: expect.stringMatching(new RegExp(`^\\[${type} block omitted: 10,485,\\d{3} characters, over the 30,000-character limit\\]$`)),
    });
    expect(result.blocks).toEqual([omitted('image'), omitted('resource'), omitted('resource'), { type: 'text', text: result.content }]);
    expect(JSON.stringify(result).length).toBeLessThan(3 * LIMIT);
  });

  it('10 MB of structured content: the model sees its JSON cut, the run keeps a marker', async () => {
    const result = await runDump({ content: [], structuredContent: { rows: 'r'.repeat(TEN_MB) } });
    expect(result.content.startsWith('{"rows":"rrr')).toBe(true);
    expect(result.content).toMatch(/\n\[\.\.\. output truncated: showing the first 30000 of 10485771 characters \.\.\.\]$/);
    expect(result.blocks).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[json block omitted: 10,485,\d{3} characters, over the 30,000-character limit\]$/) },
    ]);
  });
});
