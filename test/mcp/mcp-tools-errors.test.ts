import { ApplicationFailure } from '@temporalio/common';
import { McpCallTimeoutError, McpConnectionLostError, McpProtocolError, McpServerUnavailableError } from '../../src/mcp/mcp-errors';
import { mcpRegisteredTools } from '../../src/mcp/mcp-tools';
import type { McpManager } from '../../src/mcp/mcp-types';
import { fakeToolContext } from './helpers/tool-context';
import { failureOf } from './helpers/failure-of';

function toolThatThrows(error: unknown) {
  const manager: Pick<McpManager, 'tools' | 'callTool'> = {
    tools: () => [{ server: 's', name: 't', inputSchema: { type: 'object' } }],
    callTool: async () => {
      throw error;
    },
  };
  return mcpRegisteredTools(manager, {
    takenNames: () => false,
    servers: { s: { transport: 'stdio', command: 'x', args: [], env: {}, prefix: false } },
  })[0]!;
}


describe('MCP call failures as the activity sees them', () => {
  it('a server not connected on this worker → retryable Tool.Unavailable', async () => {
    const failure = await failureOf(toolThatThrows(new McpServerUnavailableError('s', 'failed to start')).execute!({}, fakeToolContext()));
    expect(failure.type).toBe('Tool.Unavailable');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe("MCP server 's' is not connected on this worker (failed to start); another worker may run the call.");
  });

  it('a connection lost mid-call → retryable Tool.Retryable', async () => {
    const failure = await failureOf(toolThatThrows(new McpConnectionLostError('s', 't', 'connection closed')).execute!({}, fakeToolContext()));
    expect(failure.type).toBe('Tool.Retryable');
    expect(failure.nonRetryable).toBe(false);
  });

  it('a timeout → an error result telling the model', async () => {
    await expect(toolThatThrows(new McpCallTimeoutError('s', 't', 1500)).execute!({}, fakeToolContext())).resolves.toEqual({
      blocks: [{ type: 'text', text: "Error: the MCP call to 't' timed out after 1500 ms." }],
      isError: true,
    });
  });

  it('a JSON-RPC error → an MCP tool error result', async () => {
    await expect(
      toolThatThrows(new McpProtocolError('s', 't', 'MCP error -32602: Invalid params', -32602)).execute!({}, fakeToolContext()),
    ).resolves.toEqual({ blocks: [{ type: 'text', text: 'Error: MCP tool error: MCP error -32602: Invalid params' }], isError: true });
  });

  it('anything else (e.g. cancellation) is rethrown as is', async () => {
    const cancelled = new Error('cancelled');
    await expect(toolThatThrows(cancelled).execute!({}, fakeToolContext())).rejects.toBe(cancelled);
  });
});
