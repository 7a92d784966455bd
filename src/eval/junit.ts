import type { EvalReport, EvalRunReport } from './eval-report';

function xml(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function testcaseName(run: EvalRunReport): string {
  return `${run.case}${run.model !== undefined ? ` @ ${run.model}` : ''} #${run.repeat}`;
}

function failureOf(run: EvalRunReport): { message: string; details: string } {
  const failed = run.expectations.filter((expectation) => !expectation.passed);
  const message = run.error ?? (failed[0] ? `${failed[0].expectation}: expected ${failed[0].expected}; got ${failed[0].actual}` : `status ${run.status}`);
  const details = [...(run.error ? [run.error] : []), ...failed.map((e) => `${e.expectation}: expected ${e.expected}; got ${e.actual}`), `run: ${run.workflowId}`].join('\n');
  return { message, details };
}

/** The report as JUnit XML: one testcase per case × model × repeat, a failure with what was expected and what happened. */
export function junitXml(report: EvalReport): string {
  const failures = report.runs.filter((run) => !run.passed).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="durable-agent eval" tests="${report.runs.length}" failures="${failures}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${xml(report.suite)}" tests="${report.runs.length}" failures="${failures}" errors="0" timestamp="${xml(report.startedAt)}" time="${seconds(report.durationMs)}">`,
  ];
  for (const run of report.runs) {
    const open = `    <testcase classname="${xml(run.case)}" name="${xml(testcaseName(run))}" time="${seconds(run.durationMs)}"`;
    if (run.passed) {
      lines.push(`${open}/>`);
      continue;
    }
    const { message, details } = failureOf(run);
    lines.push(`${open}>`, `      <failure message="${xml(message)}" type="${run.error ? 'error' : 'expectation'}">${xml(details)}</failure>`, '    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
