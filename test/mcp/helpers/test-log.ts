import type { McpLogger } from '../../../src/mcp/mcp-types';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  meta?: Record<string, unknown>;
}

export function createTestLog(): { log: McpLogger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (message: string, meta?: Record<string, unknown>) =>
      entries.push({ level, message, ...(meta ? { meta } : {}) });
  return { log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, entries };
}
