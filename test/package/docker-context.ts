import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';

export interface CopyInstruction {
  line: number;
  sources: string[];
}

/** The COPY instructions of a Dockerfile (`--from` ones aside: they copy from another stage, not the context). */
export function copyInstructions(dockerfile: string): CopyInstruction[] {
  return dockerfile.split('\n').flatMap((text, index) => {
    const words = text.trim().split(/\s+/);
    if (words[0] !== 'COPY' || words.some((word) => word.startsWith('--from='))) return [];
    const paths = words.slice(1).filter((word) => !word.startsWith('--'));
    return [{ line: index + 1, sources: paths.slice(0, -1) }];
  });
}

/** The files `docker build` sends from `dir`: all of them but what its .dockerignore leaves out (top-level names and globs). */
export function contextFiles(dir: string): string[] {
  const ignore = readFileSync(join(dir, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const ignored = picomatch(ignore.flatMap((pattern) => [pattern, `${pattern}/**`]), { dot: true });
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
      const path = relative(dir, join(at, entry.name));
      if (ignored(path)) return [];
      return entry.isDirectory() ? walk(join(at, entry.name)) : [path];
    });
  return walk(dir);
}

/** The context's files a COPY source names (a glob, a file, or a folder and what is in it). */
export function matchedBy(source: string, files: readonly string[]): string[] {
  const pattern = source.replace(/^\.\//, '').replace(/\/$/, '');
  const match = picomatch([pattern, `${pattern}/**`], { dot: true });
  return files.filter((file) => match(file));
}
