/** One figure of the final table. `met` is undefined for a figure without a target. */
export interface SummaryRow {
  part: string;
  figure: string;
  value: string;
  target: string;
  met?: boolean;
  /** The 1-minute load average when the figure was measured. */
  load: number;
}

function pad(cells: string[][]): string[] {
  const widths = cells[0].map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return cells.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd());
}

export function printSummary(rows: SummaryRow[]): void {
  const cells = [
    ['part', 'figure', 'value', 'target', 'met', 'load'],
    ...rows.map((row) => [row.part, row.figure, row.value, row.target || '—', row.met === undefined ? '—' : row.met ? 'yes' : 'NO', row.load.toFixed(2)]),
  ];
  const lines = pad(cells);
  console.log(`\nsummary (load: 1-minute load average when measured)`);
  console.log(lines[0]);
  console.log('-'.repeat(Math.max(...lines.map((line) => line.length))));
  for (const line of lines.slice(1)) console.log(line);
}
