import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const PART_CHARS = 29_000;
const partTool = defineTool({
  name: 'part',
  description: 'One part of a long document.',
  input: z.object({ n: z.number() }),
  readOnly: true,
  execute: ({ n }) => `part ${String(n).padStart(3, '0')} ${'p'.repeat(PART_CHARS - 9)}`,
});
const reader = defineAgent({ name: 'long-reader', instructions: 'Read every part.', tools: [partTool], maxIters: 110 });

describe('a run whose conversation is larger than Temporal allows a result to be', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [reader],
      script: (request) => {
        const read = request.messages.filter((m) => m.role === 'tool').length;
        return read < 100 ? { toolCalls: [{ name: 'part', arguments: { n: read + 1 } }] } : 'Read all 100 parts.';
      },
    });
  });
  afterAll(async () => env?.stop());

  test('100 tool results of 29,000 characters: the run completes and result() gives every message', async () => {
    const run = await env.client.start('long-reader', { prompt: 'Read the document.' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'completed', output: 'Read all 100 parts.' });
    expect(result.messages).toHaveLength(1 + 1 + 2 * 100 + 1);
    const parts = result.messages.filter((m) => m.role === 'tool').map((m) => (m.content as string).slice(0, 8));
    expect(parts).toEqual(Array.from({ length: 100 }, (_, i) => `part ${String(i + 1).padStart(3, '0')}`));
    expect(result.messageCount).toBeUndefined();
    // The workflow's own result holds the newest messages under Temporal's limit, and the count.
    const raw = await run.handle.result();
    expect(raw.messageCount).toBe(203);
    expect(raw.messages.length).toBeLessThan(203);
    expect(JSON.stringify(raw).length).toBeLessThan(2 * 1024 * 1024);
  }, 120_000);
});
