import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
let built = false;

/** Builds dist/ once per bench process, for the parts that measure the package as a user runs it. */
export function ensureCompiledPackage(): string {
  if (!built) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.cjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
    built = true;
  }
  return join(ROOT, 'dist');
}
