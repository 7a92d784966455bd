import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJson } from './helpers/history-json';
import { HISTORIES_DIR } from './helpers/record-history';
import { workflowBundle } from './helpers/temporal-env';

const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();

describe('replay of recorded histories', () => {
  test('the fixtures exist (record them with RECORD_HISTORIES=1 npm test)', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  (files.length > 0 ? test.each(files) : test.skip.each(['(no fixtures)']))('%s replays against the current workflow code', async (file) => {
    const history = historyFromJson(JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8')));
    // Throws DeterminismViolationError (or any replay failure) when the code no longer matches.
    await Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, file.replace(/\.json$/, ''));
  });
});
