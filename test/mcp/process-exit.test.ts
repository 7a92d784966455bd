import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { isAlive, waitFor } from './helpers/processes';

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const SCRIPT = join(__dirname, 'helpers/exit-without-close.ts');

function runWorkerThatDies(how: 'exit' | 'throw'): { pids: number[]; status: number | null } {
  const result = spawnSync(TSX, [SCRIPT, how], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const line = result.stdout.trim().split('\n')[0] ?? '';
  if (!line.startsWith('[')) throw new Error(`unexpected output: ${result.stdout}\n${result.stderr}`);
  return { pids: JSON.parse(line) as number[], status: result.status };
}

describe('stdio servers never outlive the worker', () => {
  it.each(['exit', 'throw'] as const)('children are killed when the worker process ends by %s without close()', async (how) => {
    const { pids, status } = runWorkerThatDies(how);
    expect(status).toBe(how === 'exit' ? 0 : 1);
    expect(pids).toHaveLength(2);
    expect(pids.every((pid) => typeof pid === 'number')).toBe(true);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 3000)).toBe(true);
  });
});
