/** The variable with more origins the HTTP server takes requests from (comma-separated), when no --allow-origin is given. */
export const ALLOWED_ORIGINS_ENV = 'AGENT_MCP_ALLOWED_ORIGINS';
