/** The server is not connected on this worker and could not be reconnected right now. */
export class McpServerUnavailableError extends Error {
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`MCP server '${server}' is not connected on this worker (${reason})`);
    this.name = 'McpServerUnavailableError';
  }
}

/** The connection broke while the call was in flight (child exited, HTTP request failed). */
export class McpConnectionLostError extends Error {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly reason: string,
  ) {
    super(`MCP server '${server}' lost its connection during a call to '${tool}': ${reason}`);
    this.name = 'McpConnectionLostError';
  }
}

export class McpCallTimeoutError extends Error {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`MCP tool '${tool}' on server '${server}' timed out after ${timeoutMs} ms`);
    this.name = 'McpCallTimeoutError';
  }
}

/** The server answered with a JSON-RPC error (unknown tool, invalid params, ...) or a malformed result. */
export class McpProtocolError extends Error {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly detail: string,
    readonly code?: number,
  ) {
    super(detail);
    this.name = 'McpProtocolError';
  }
}
