import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

interface Manifest {
  name?: unknown;
  scripts?: Record<string, unknown>;
}

/** The nearest package.json at or above `dir`: the one whose scripts `npm run` runs there. */
function nearestManifest(dir: string): Manifest | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      } catch {
        return undefined;
      }
    }
    if (dirname(at) === at) return undefined;
  }
}

const npmRun = (script: string): string => (script === 'start' ? 'npm start' : `npm run ${script}`);

/**
 * The commands that start a Temporal server where the process runs, as that project has them: its
 * npm script that runs `durable-agent dev` (a project made by `durable-agent init` has `npm run dev`),
 * `npm start` in this package's own repository, and always `temporal server start-dev`.
 */
export function startServerCommands(dir: string = process.cwd()): string[] {
  const manifest = nearestManifest(dir);
  const scripts = Object.entries(manifest?.scripts ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const found = scripts.filter(([, command]) => /(^|[\s;&|])durable-agent dev(\s|$)/.test(command)).map(([name]) => npmRun(name));
  if (manifest?.name === 'durable-agent' && scripts.some(([name, command]) => name === 'start' && command.includes('scripts/start.cjs'))) found.push('npm start');
  return [...found, 'temporal server start-dev'];
}
