import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WorkerConfigurationError } from '../../src/worker/configuration-error';
import { loadWorkerAgents } from '../../src/worker/load-worker-agents';

const dir = mkdtempSync(join(tmpdir(), 'load-worker-agents-'));

describe('loadWorkerAgents', () => {
  test('a CommonJS module: its agents and its code MCP servers', async () => {
    const loaded = await loadWorkerAgents(resolve(__dirname, '..', 'fixtures', 'agents-module', 'agents.cjs'));
    expect(loaded.agents.map((agent) => agent.name)).toEqual(['shouter']);
    expect(loaded.mcpServers).toEqual({});
  });

  test('a TypeScript module, without a build step', async () => {
    const file = join(dir, 'agents.ts');
    const define = resolve(__dirname, '..', '..', 'src', 'toolkit', 'define-agent.ts');
    writeFileSync(file, `import { defineAgent } from ${JSON.stringify(define)};\nconst name: string = 'typed-agent';\nexport const agents = [defineAgent({ name, instructions: 'Hi.', tools: [] })];\n`);
    expect((await loadWorkerAgents(file)).agents.map((agent) => agent.name)).toEqual(['typed-agent']);
  });

  test.each([
    ['exports no agents', 'exports.agents = [];', /exports no agent definitions/],
    ['throws while loading', "throw new Error('missing dependency: payments-sdk');", /missing dependency: payments-sdk/],
  ])('a module that %s is a configuration error naming the module', async (_what, source, message) => {
    const file = join(dir, `agents-${Math.random().toString(36).slice(2)}.js`);
    writeFileSync(file, source);
    const loading = loadWorkerAgents(file);
    await expect(loading).rejects.toBeInstanceOf(WorkerConfigurationError);
    await expect(loadWorkerAgents(file)).rejects.toThrow(`AGENT_MODULE=${file} could not be loaded`);
    await expect(loadWorkerAgents(file)).rejects.toThrow(message);
  });
});
