import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/run-cli';
import { resolveConnectionSettings } from '../../src/connection/connection-settings';
import { brokenLink, relativeLinks } from './links';
import { codeBlocks, documentationFiles, readDoc, ROOT, strayMarkers, where, type CodeBlock } from './markdown';
import { runShellBlock, SHELL_LANGS } from './shell-blocks';
import { JAVASCRIPT_LANGS, typeCheckBlocks, TYPESCRIPT_LANGS } from './type-check-blocks';

/**
 * The README and the guides in docs/ as a reader uses them: every TypeScript and JavaScript block
 * compiles against the sources, every shell block that can run here runs and exits 0, every JSON
 * block parses, every TOML block is a Temporal config file whose profiles load, every relative
 * link reaches a file and a heading, and the README stays a front door. The conventions for blocks that are not whole modules or cannot run are in ./markdown.ts.
 */

const README_LIMIT = 20 * 1024;
const FILES = documentationFiles();
const BLOCKS = FILES.flatMap((file) => codeBlocks(file));
/** Kinds that are shown, never run: program output, diagrams, trees. */
const SHOWN = new Set(['text']);
const COMPILED = (block: CodeBlock) => TYPESCRIPT_LANGS.has(block.lang) || JAVASCRIPT_LANGS.has(block.lang);
const RUNNABLE = BLOCKS.filter((block) => SHELL_LANGS.has(block.lang) && block.marker?.kind !== 'not-run');

describe('the README', () => {
  const readme = readDoc('README.md');

  test(`is a front door: at most ${README_LIMIT} bytes`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_LIMIT);
  });

  test('shows the two set-up-free commands, the install line and a first agent', () => {
    const shell = codeBlocks('README.md').filter((block) => SHELL_LANGS.has(block.lang));
    const commands = shell.flatMap((block) => block.code.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()));
    expect(commands).toEqual(expect.arrayContaining(['npm start', 'npm test', 'npm install durable-agent']));
    expect(readme).toMatch(/\n## A first agent\n/);
  });

  test('links every guide through docs/README.md, and the index links every guide of docs/', () => {
    expect(relativeLinks('README.md').map((link) => link.target)).toContain('docs/README.md');
    const indexed = new Set(relativeLinks('docs/README.md').map((link) => link.target.split('#')[0]));
    const guides = FILES.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md').map((file) => file.slice('docs/'.length));
    expect(guides.filter((guide) => !indexed.has(guide))).toEqual([]);
  });
});

describe('the code blocks of the README and docs/', () => {
  test('each block says what it is: a language every block of that kind is checked for, or a reason it cannot run', () => {
    const unchecked = BLOCKS.filter((block) => {
      if (COMPILED(block)) return block.marker?.kind === 'not-run' || block.marker?.kind === 'in-repository';
      if (SHELL_LANGS.has(block.lang)) return block.marker?.kind === 'fragment';
      if (block.lang === 'json' || block.lang === 'toml' || SHOWN.has(block.lang)) return block.marker !== undefined && block.marker.kind !== 'not-run';
      return block.marker?.kind !== 'not-run';
    });
    expect(unchecked.map((block) => `${where(block)} \`\`\`${block.lang || '(no language)'}${block.marker ? ` (${block.marker.kind})` : ''}`)).toEqual([]);
  });

  test('no marker comment stands before anything but a code block', () => {
    expect(FILES.flatMap((file) => strayMarkers(file))).toEqual([]);
  });

  test('every TypeScript and JavaScript block compiles (tsc, strict) against the sources', async () => {
    const errors = await typeCheckBlocks(BLOCKS.filter(COMPILED));
    expect(errors.map((error) => `${error.at}: ${error.message}`)).toEqual([]);
  }, 600_000);

  test('every JSON block parses', () => {
    const broken = BLOCKS.filter((block) => block.lang === 'json' && block.marker?.kind !== 'not-run').flatMap((block) => {
      try {
        JSON.parse(block.code);
        return [];
      } catch (error) {
        return [`${where(block)}: ${(error as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });

  test("every TOML block is a Temporal config file: each profile it names loads with its address and namespace", () => {
    const dir = mkdtempSync(join(tmpdir(), 'durable-agent-docs-toml-'));
    try {
      const loaded = BLOCKS.filter((block) => block.lang === 'toml' && block.marker?.kind !== 'not-run').flatMap((block, index) => {
        const file = join(dir, `config-${index}.toml`);
        writeFileSync(file, block.code);
        const profiles = [...block.code.matchAll(/^\[profile\.([\w-]+)\]$/gm)].map((match) => match[1]!);
        const value = (key: string) => new RegExp(`^${key} = "([^"]*)"$`, 'm').exec(block.code)?.[1];
        return profiles.map((profile) => {
          try {
            const settings = resolveConnectionSettings({ profile }, { TEMPORAL_CONFIG_FILE: file });
            return { at: where(block), profile, address: settings.address, namespace: settings.namespace, expected: { address: value('address'), namespace: value('namespace') } };
          } catch (error) {
            return { at: where(block), profile, error: (error as Error).message };
          }
        });
      });
      for (const profile of loaded) expect(profile).toMatchObject({ address: profile.expected?.address, namespace: profile.expected?.namespace });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each(RUNNABLE.map((block) => [where(block), block] as const))('the shell block at %s runs and exits 0', async (_, block) => {
    const outcome = await runShellBlock(block);
    expect(outcome.code === 0 ? '' : `exit ${outcome.code}\n$ ${block.code}\n--- stdout\n${outcome.stdout}\n--- stderr\n${outcome.stderr}`).toBe('');
  }, 180_000);
});

describe('the CLI in the docs', () => {
  test("every command of `durable-agent --help` has its row in the README's table and in docs/cli.md, and its --help runs there", () => {
    const rowsOf = (file: string) => readDoc(file).split('\n').filter((line) => line.startsWith('| `'));
    const named = (rows: string[], name: string) => rows.some((row) => row.split(' | ')[0]!.match(new RegExp(`\`${name}[\` ]`)));
    const helpLoop = codeBlocks('docs/cli.md').find((block) => block.code.includes('--help'))?.code ?? '';
    const missing = COMMANDS.map((command) => command.name).flatMap((name) => [
      ...(named(rowsOf('README.md'), name) ? [] : [`README.md: ${name}`]),
      ...(named(rowsOf('docs/cli.md'), name) ? [] : [`docs/cli.md: ${name}`]),
      ...(new RegExp(`\\b${name}\\b`).test(helpLoop) ? [] : [`docs/cli.md --help loop: ${name}`]),
    ]);
    expect(missing).toEqual([]);
  });
});

describe('the links of the README and docs/', () => {
  test('every relative link reaches a file, and a heading when it names one', () => {
    const broken = FILES.flatMap((file) => relativeLinks(file)).flatMap((link) => {
      const problem = brokenLink(link);
      return problem ? [`${link.file}:${link.line}: ${problem}`] : [];
    });
    expect(broken).toEqual([]);
  });
});
