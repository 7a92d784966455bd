import { shortJson } from './canonical-json';
import { caseKey, type EvalCaseSummary, type EvalReport, type EvalRunReport } from './eval-report';

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd());
}

function change(summary: EvalCaseSummary | undefined): string {
  const baseline = summary?.baseline;
  if (!baseline) return '';
  const sign = baseline.change > 0 ? '+' : baseline.change < 0 ? '' : '±';
  return `${sign}${baseline.change.toFixed(2)}${baseline.regression ? ' REGRESSED' : ''}`;
}

function cell(summary: EvalCaseSummary | undefined, withChange: boolean): string {
  if (!summary) return '-';
  const text = `${summary.passRate.toFixed(2)} (${summary.passed}/${summary.runs})`;
  const moved = withChange ? change(summary) : '';
  return moved ? `${text} ${moved}` : text;
}

function notes(runs: readonly EvalRunReport[]): string {
  const notRun = [...new Set(runs.flatMap((run) => run.notRun.map((call) => call.tool)))];
  const fresh = [...new Set(runs.flatMap((run) => run.newBehaviour.map((call) => call.tool)))];
  return [notRun.length > 0 ? `not run: ${notRun.join(', ')}` : '', fresh.length > 0 ? `new behaviour: ${fresh.join(', ')}` : ''].filter(Boolean).join('; ');
}

/** What failed in a run and why, and the calls it did not run; nothing for a run that passed with no such call. */
function runLines(run: EvalRunReport): string[] {
  const details = [
    ...(run.error ? [run.error] : []),
    ...run.expectations.filter((expectation) => !expectation.passed).map((failed) => `${failed.expectation}: expected ${failed.expected}; got ${failed.actual}`),
    ...run.notRun.map((call) => `not run: ${call.tool}(${shortJson(call.input, 100)}): the case gives no result for it`),
    ...run.newBehaviour.map((call) => `new behaviour: ${call.tool}(${shortJson(call.input, 100)}): not in the recording`),
  ];
  if (details.length === 0) return [];
  const label = `${run.model !== undefined ? `${run.case} @ ${run.model}` : run.case} #${run.repeat} (${run.workflowId})`;
  return [`${run.passed ? '✓' : '✗'} ${label}`, ...details.map((line) => `    ${line}`)];
}

/**
 * The report as people read it: one row per case (one column per model with --models) with its
 * pass rate and its change from the baseline, then what failed and why, then the totals.
 */
export function reportText(report: EvalReport): string {
  const names = [...new Set(report.cases.map((summary) => summary.case))];
  const byKey = new Map(report.cases.map((summary) => [caseKey(summary.case, summary.model), summary]));
  const withBaseline = report.baseline !== undefined;
  const rows: string[][] = [];
  if (report.models) {
    rows.push(['CASE', ...report.models, 'NOTES']);
    for (const name of names) {
      const runs = report.runs.filter((run) => run.case === name);
      rows.push([name, ...report.models.map((model) => cell(byKey.get(caseKey(name, model)), withBaseline)), notes(runs)]);
    }
  } else {
    rows.push(['CASE', 'PASS', ...(withBaseline ? ['CHANGE'] : []), 'TOKENS', 'NOTES']);
    for (const name of names) {
      const summary = byKey.get(caseKey(name, undefined));
      const runs = report.runs.filter((run) => run.case === name);
      const tokens = runs.length > 0 ? Math.round(runs.reduce((sum, run) => sum + run.usage.totalTokens, 0) / runs.length) : 0;
      rows.push([name, cell(summary, false), ...(withBaseline ? [change(summary) || 'new'] : []), String(tokens), notes(runs)]);
    }
  }
  const lines = table(rows);
  const details = report.runs.flatMap(runLines);
  if (details.length > 0) lines.push('', ...details);
  const { summary } = report;
  lines.push('', `${summary.passedCases} of ${summary.cases} cases passed every run (${summary.passedRuns} of ${summary.runs} runs passed).`);
  if (report.baseline) {
    const { regressions, path, threshold } = report.baseline;
    lines.push(regressions.length === 0 ? `No regression against ${path} (threshold ${threshold}).` : `Regressions against ${path} (threshold ${threshold}):`, ...regressions.map((line) => `  ${line}`));
  }
  return lines.join('\n');
}

/** One line per finished run, for stderr while the eval goes on. */
export function progressLine(run: EvalRunReport): string {
  const label = `${run.case}${run.model !== undefined ? ` @ ${run.model}` : ''} #${run.repeat}`;
  const seconds = `${(run.durationMs / 1000).toFixed(1)}s`;
  if (run.passed) return `[eval] ✓ ${label} ${run.status} ${seconds}`;
  const first = run.error ?? run.expectations.filter((expectation) => !expectation.passed).map((e) => `${e.expectation}: expected ${e.expected}; got ${e.actual}`)[0] ?? run.status;
  return `[eval] ✗ ${label} ${run.status} ${seconds}: ${first}`;
}
