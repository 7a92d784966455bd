import { WorkflowNotFoundError } from '@temporalio/client';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { StartInputTooLargeError } from '../../src/client/start-input-size';
import { startMcpServerKit, textOf, type McpServerKit } from '../helpers/mcp-server-kit';

const MiB = 1024 * 1024;
const LIMIT = 'over the limit of 1 MiB (1048576 bytes)';
const refusal = (size: string) => new RegExp(`^Run (mcp-mcp-helper-[0-9a-f]{10}) of mcp-helper was not started: its input \\(the prompt and runtime context\\) is ${size}, ${LIMIT.replace(/[()]/g, '\\$&')}$`);

/** Time a refusal may take on a loaded machine: Temporal's own refusal came after ~40 s of retries. */
const PROMPTLY_MS = 10_000;

describe('durable-agent mcp: a prompt over the payload limit is refused before a run starts, naming the limit', () => {
  let kit: McpServerKit;

  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  async function expectNotStarted(runId: string): Promise<void> {
    await expect(kit.env.client.get(runId).handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  }

  test('over stdio: a 5 MiB prompt is a tool error, and a task-augmented one an InvalidParams error', async () => {
    const client = await kit.overStdio();
    const prompt = 'x'.repeat(5 * MiB);
    const started = Date.now();
    const result = await client.callTool({ name: 'mcp-helper', arguments: { prompt } });
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(result.isError).toBe(true);
    const [, runId] = refusal('5 MiB').exec(textOf(result)) ?? [];
    expect(textOf(result)).toMatch(refusal('5 MiB'));
    await expectNotStarted(runId!);

    const asTask = client.request({ method: 'tools/call', params: { name: 'mcp-helper', arguments: { prompt }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    await expect(asTask).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/was not started: its input .* is 5 MiB, over the limit of 1 MiB/) });
  });

  test('over HTTP: a 3 MiB prompt is a tool error naming the limit', async () => {
    const server = await kit.httpServer();
    const client = await kit.overHttp(server.url);
    const started = Date.now();
    const result = await client.callTool({ name: 'mcp-helper', arguments: { prompt: 'y'.repeat(3 * MiB), userId: 'u-1' } });
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(refusal('3 MiB'));
    await expectNotStarted(refusal('3 MiB').exec(textOf(result))![1]!);
  });

  test('the library refuses the same before anything is sent (the CLI and MCP server go through it)', async () => {
    const id = `size-limit-${Date.now()}`;
    const start = kit.env.client.start('mcp-helper', { prompt: 'z'.repeat(MiB), userId: 'u-1', id });
    await expect(start).rejects.toBeInstanceOf(StartInputTooLargeError);
    await expect(start).rejects.toThrow(new RegExp(`^Run ${id} of mcp-helper was not started: its input \\(the prompt and runtime context\\) is 1 MiB, over the limit`));
    await expectNotStarted(id);
    const run = await kit.env.client.start('mcp-helper', { prompt: 'z'.repeat(MiB / 4), id: `${id}-fits` });
    expect((await run.result()).output).toBe('Helped: ORD-1 is on its way');
  });
});
