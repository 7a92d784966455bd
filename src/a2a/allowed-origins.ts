/** The variable with more origins the A2A server takes requests from (comma-separated), when no --allow-origin is given. */
export const A2A_ALLOWED_ORIGINS_ENV = 'AGENT_A2A_ALLOWED_ORIGINS';
