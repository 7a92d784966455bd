import { join, resolve } from 'node:path';
import type { StdioServerConfig } from '../../../src/mcp/tools-config-types';

const ROOT = resolve(__dirname, '../../..');
export const EVERYTHING_BIN = join(ROOT, 'node_modules/.bin/mcp-server-everything');
export const FILESYSTEM_BIN = join(ROOT, 'node_modules/.bin/mcp-server-filesystem');
export const FAULT_SERVER = join(ROOT, 'test/fixtures/mcp/fault-server.mjs');

export function everythingStdio(): StdioServerConfig {
  return { transport: 'stdio', command: EVERYTHING_BIN, args: ['stdio'], env: {}, prefix: false };
}

export function filesystemStdio(dir: string): StdioServerConfig {
  return { transport: 'stdio', command: FILESYSTEM_BIN, args: [dir], env: {}, prefix: false };
}

export function faultServer(env: Record<string, string> = {}, extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return { transport: 'stdio', command: process.execPath, args: [FAULT_SERVER], env, prefix: false, ...extra };
}
