import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import of a source file: what it names, where that resolves in src (if it does), and whether only types come. */
export interface SourceImport {
  from: string;
  specifier: string;
  /** Path under src/ without extension, for imports of the project's own files. */
  target?: string;
  typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC = /\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every TypeScript file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

function resolveTarget(src: string, file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(file), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(src, candidate).replace(/\.ts$/, '');
  }
  return relative(src, base);
}

/** Every import of every TypeScript file under `src`, static and dynamic (require, import()). */
export function importGraph(src: string): SourceImport[] {
  return sourceFiles(src).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const from = relative(src, file).replace(/\.ts$/, '');
    const found: SourceImport[] = [];
    for (const match of text.matchAll(IMPORT)) {
      found.push({ from, specifier: match[3]!, target: resolveTarget(src, file, match[3]!), typeOnly: Boolean(match[2]) || /import\s+type\b/.test(match[0]) });
    }
    for (const match of text.matchAll(DYNAMIC)) {
      found.push({ from, specifier: match[1]!, target: resolveTarget(src, file, match[1]!), typeOnly: false });
    }
    return found;
  });
}

/** The room of a path under src: its first folder, or `entry` for the package's entry points (src/index.ts, src/entries/). */
export function roomOf(path: string): string {
  const [first, ...rest] = path.split('/');
  return rest.length === 0 || first === 'entries' ? 'entry' : first!;
}
