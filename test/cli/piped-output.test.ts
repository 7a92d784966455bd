import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = join(__dirname, '..', '..');

describe('the CLI through a pipe', () => {
  test('output larger than a pipe holds reaches a reader that is slow to read, whole, before the CLI exits', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'durable-agent.cjs'), 'tools', '--module', join(ROOT, 'test', 'fixtures', 'agents-module', 'many-tools.cjs'), '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // The reader does not read while the CLI writes and decides to exit.
    child.stdout.pause();
    await sleep(3_000);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.length).toBeGreaterThan(500_000);
    const listing = JSON.parse(text) as { agents: { tools: unknown[] }[] };
    expect(listing.agents[0]!.tools).toHaveLength(300);
  }, 60_000);
});
