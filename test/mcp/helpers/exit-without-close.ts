// Run as a separate process: starts MCP servers, prints their pids, then dies without close().
import { createMcpManager } from '../../../src/mcp/mcp-manager';
import { faultServer } from './servers';

const how = process.argv[2] ?? 'exit';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function main(): Promise<void> {
  const manager = createMcpManager({
    servers: { a: faultServer({ FAULT_SERVER_IGNORE_EOF: '1' }), b: faultServer({ FAULT_SERVER_IGNORE_EOF: '1' }) },
    log: quiet,
  });
  await manager.start();
  process.stdout.write(`${JSON.stringify(manager.serverStatus().map((status) => status.pid))}\n`);
  if (how === 'throw') throw new Error('worker crashed');
  process.exit(0);
}

void main();
