import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Lays a fresh copy of the demo project (with its bug) at `<workspace>/coder-demo`. */
export function prepareCoderWorkspace(workspace: string): string {
  const target = join(resolve(workspace), 'coder-demo');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(join(__dirname, 'coder-project'), target, { recursive: true });
  return target;
}
