import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { FRAGMENT_CONTEXT } from './fragment-context';
import { ROOT, where, type CodeBlock } from './markdown';

/** Blocks compiled as TypeScript, and as JavaScript (checkJs). */
export const TYPESCRIPT_LANGS = new Set(['ts', 'typescript']);
export const JAVASCRIPT_LANGS = new Set(['js', 'javascript', 'cjs', 'mjs']);

interface CompiledFile {
  name: string;
  block: CodeBlock;
  /** Line of the file where the block's first line is. */
  firstLine: number;
}

/**
 * The block as a file to compile. A whole module is written as it is. A fragment is wrapped in
 * an async function, its imports hoisted and the context it names declared, all on the first
 * line, so a line of the file is the same line of the block plus one.
 */
export function compilableSource(block: CodeBlock): { source: string; firstLine: number } {
  if (block.marker?.kind !== 'fragment') return { source: block.code, firstLine: 1 };
  const unknown = block.marker.context.filter((name) => !(name in FRAGMENT_CONTEXT));
  if (unknown.length > 0) throw new Error(`${where(block)}: the fragment names ${unknown.join(', ')}, which test/docs/fragment-context.ts does not declare`);
  const parsed = ts.createSourceFile('fragment.ts', block.code, ts.ScriptTarget.ES2022, true);
  const lines = block.code.split('\n');
  const imports: string[] = [];
  for (const statement of parsed.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    imports.push(statement.getText(parsed).replace(/\s*\n\s*/g, ' '));
    const from = parsed.getLineAndCharacterOfPosition(statement.getStart(parsed)).line;
    const to = parsed.getLineAndCharacterOfPosition(statement.getEnd()).line;
    for (let line = from; line <= to; line++) lines[line] = '';
  }
  const context = block.marker.context.map((name) => FRAGMENT_CONTEXT[name]!);
  const head = [...imports, ...context, 'export async function fragment(): Promise<void> {'].join(' ');
  return { source: [head, ...lines, '}'].join('\n'), firstLine: 2 };
}

function fileName(block: CodeBlock, index: number): string {
  const base = `${block.file.replace(/[^\w]+/g, '_')}_L${block.line}_${index}`;
  return TYPESCRIPT_LANGS.has(block.lang) ? `${base}.ts` : `${base}.cjs`;
}

/** The compiler options: strict, the package's specifiers mapped to src, every block its own module. */
function tsconfig(files: string[]): object {
  return {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'preserve',
      moduleResolution: 'bundler',
      moduleDetection: 'force',
      types: ['node'],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      allowJs: true,
      checkJs: true,
      paths: {
        'durable-agent': [join(ROOT, 'src', 'index.ts')],
        'durable-agent/*': [join(ROOT, 'src', 'entries', '*.ts')],
      },
    },
    files,
  };
}

export interface BlockError {
  at: string;
  message: string;
}

/**
 * Type-checks the blocks with tsc in a temporary project whose node_modules is the repository's,
 * and answers the errors found in the blocks, each at its markdown line (errors in src, compiled
 * along, are not the docs' and are left to `npm run typecheck`).
 */
export async function typeCheckBlocks(blocks: CodeBlock[]): Promise<BlockError[]> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-docs-'));
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    mkdirSync(join(dir, 'blocks'));
    const files: CompiledFile[] = blocks.map((block, index) => {
      const name = join('blocks', fileName(block, index));
      const { source, firstLine } = compilableSource(block);
      writeFileSync(join(dir, name), `${source}\n`);
      return { name, block, firstLine };
    });
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(files.map((file) => file.name)), null, 2));
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--pretty', 'false'], { cwd: dir, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }, (error, stdout) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve(stdout);
      });
    });
    const byName = new Map(files.map((file) => [file.name, file]));
    const errors: BlockError[] = [];
    for (const match of output.matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+: [^\n]*(?:\n(?! *\S+\(\d+,\d+\): ) +[^\n]*)*)/gm)) {
      const file = byName.get(match[1]!);
      if (!file) continue;
      const lineInBlock = Number(match[2]) - file.firstLine + 1;
      errors.push({ at: `${file.block.file}:${file.block.line + Math.max(lineInBlock, 1)}`, message: match[4]!.trim() });
    }
    const unplaced = output.match(/^error TS\d+:.*$/gm);
    if (unplaced) throw new Error(`tsc could not compile the blocks:\n${unplaced.join('\n')}`);
    return errors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
