import { chaosPassed, formatReport } from '../../chaos/chaos-report';
import { runChaos } from '../../chaos/run-chaos';
import { workflowBundle } from '../helpers/temporal-env';

// `npm run chaos` at a size that fits the suite: real worker processes with default settings,
// SIGKILLed at random, and a dev server of its own SIGKILLed and restarted on its database.
describe('chaos: workers and the server killed while 30 runs apply 8 side effects each', () => {
  test('every run answers right, every effect once, no step reported failed though applied, no WorkflowTaskFailed', async () => {
    const lines: string[] = [];
    const report = await runChaos({
      // Runs of about 16 s (8 tools of 1–3 s), so that every kill and the restart (about 13 s of
      // schedule) land while runs are open.
      runs: 30,
      steps: 8,
      workers: 3,
      workerKills: 3,
      serverRestarts: 1,
      everyMs: 2000,
      downMs: 1500,
      toolMs: [1000, 3000],
      workflowBundle: workflowBundle().codePath,
      timeoutMs: 480_000,
      log: (line) => lines.push(line),
    });
    const printed = formatReport(report).join('\n');
    expect({ kills: report.workerKills, restarts: report.serverRestarts }).toEqual({ kills: 3, restarts: 1 });
    expect(report).toMatchObject({ correct: 30, effectsOnce: 240, effectsMissing: 0, effectsTwice: 0, failedThoughApplied: 0, workflowTaskFailed: 0 });
    expect(chaosPassed(report)).toBe(true);
    // A kill during a call makes it run again (at the same key): the chaos was real.
    expect(report.reExecutions + report.activityRetries).toBeGreaterThan(0);
    expect(printed).toContain('chaos: every promise kept');
  }, 600_000);
});
