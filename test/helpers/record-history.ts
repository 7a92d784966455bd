import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRun } from '../../src/client/agent-run';
import { historyToJson } from './history-json';

export const HISTORIES_DIR = join(__dirname, '..', 'fixtures', 'histories');

/**
 * With RECORD_HISTORIES=1 the finished run's history is saved as a replay fixture. The replay
 * test replays every fixture against the current workflow code.
 */
export async function maybeRecordHistory(run: AgentRun, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await run.handle.fetchHistory();
  mkdirSync(HISTORIES_DIR, { recursive: true });
  writeFileSync(join(HISTORIES_DIR, `${name}.json`), historyToJson(history));
}
