import { readFileSync } from 'node:fs';
import { Worker } from '@temporalio/worker';
import { historyFromJson } from './helpers/history-json';
import { CURRENT_RELEASE, HISTORIES_ROOT } from './helpers/record-history';
import { compareReleases, isReleaseName, listReplayFixtures, replayWorkflowId } from './helpers/replay-fixtures';
import { workflowBundle } from './helpers/temporal-env';
import { agentWorkflowSinks } from '../src/telemetry/agent-workflow-sinks';

// Every release's fixtures, kept forever: runs started by any earlier release must still replay.
const fixtures = listReplayFixtures(HISTORIES_ROOT);
const ids = fixtures.map((fixture) => fixture.id);

describe('replay of recorded histories', () => {
  test('the fixtures exist (record them with RECORD_HISTORIES=1 npm test)', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  test(`every fixture lives in the folder of the release that recorded it, none newer than ${CURRENT_RELEASE}`, () => {
    const misplaced = fixtures.filter((fixture) => !isReleaseName(fixture.release) || compareReleases(fixture.release, CURRENT_RELEASE) > 0);
    expect(misplaced.map((fixture) => fixture.id)).toEqual([]);
  });

  (ids.length > 0 ? test.each(ids) : test.skip.each(['(no fixtures)']))('%s replays against the current workflow code', async (id) => {
    const fixture = fixtures.find((candidate) => candidate.id === id)!;
    const history = historyFromJson(JSON.parse(readFileSync(fixture.path, 'utf8')));
    // Throws DeterminismViolationError (or any replay failure) when the code no longer matches.
    await Worker.runReplayHistory({ workflowBundle: workflowBundle(), sinks: agentWorkflowSinks() }, history, replayWorkflowId(history, id.replace(/\.json$/, '')));
  });
});
