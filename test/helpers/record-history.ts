import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRun } from '../../src/client/agent-run';
import { historyToJson } from './history-json';

/** One folder per release (`<root>/<version>/`); every release's fixtures are kept and replayed. */
export const HISTORIES_ROOT = join(__dirname, '..', 'fixtures', 'histories');

export const CURRENT_RELEASE = (require('../../package.json') as { version: string }).version;

/** Where this release's recordings go. */
export const HISTORIES_DIR = join(HISTORIES_ROOT, CURRENT_RELEASE);

/**
 * With RECORD_HISTORIES=1 the finished run's history is saved as a replay fixture of the current
 * release (package.json's version). The replay test replays the fixtures of every release against
 * the current workflow code.
 */
export async function maybeRecordHistory(run: AgentRun, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await run.handle.fetchHistory();
  mkdirSync(HISTORIES_DIR, { recursive: true });
  writeFileSync(join(HISTORIES_DIR, `${name}.json`), historyToJson(history));
}
