import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A temporary tree: `<base>/ws` is the workspace, `<base>/outside` holds files the tools
 * must never reach; `ws/outlink` and `ws/outfile` are symbolic links that lead out.
 */
export interface TempLayout {
  base: string;
  workspace: string;
  outside: string;
  cleanup(): void;
}

export function makeLayout(): TempLayout {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harness-tools-')));
  const workspace = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
  fs.mkdirSync(path.join(outside, 'nested'));
  fs.writeFileSync(path.join(outside, 'nested', 'data.txt'), 'outside data\n');
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src', 'main.ts'), 'export const answer = 42;\n');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Project\n');
  fs.symlinkSync(outside, path.join(workspace, 'outlink'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'outfile'));
  fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling'));
  return { base, workspace, outside, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

/** Every entry below `dir` (symbolic links not followed) with its kind, mode and content hash. */
export function snapshot(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of fs.readdirSync(current).sort()) {
      const full = path.join(current, name);
      const stat = fs.lstatSync(full);
      const key = path.relative(dir, full);
      if (stat.isDirectory()) {
        result[key] = `dir ${stat.mode}`;
        walk(full);
      } else if (stat.isSymbolicLink()) {
        result[key] = `link ${fs.readlinkSync(full)}`;
      } else {
        result[key] = `file ${stat.mode} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
      }
    }
  };
  walk(dir);
  return result;
}

/** Everything under `base` except the workspace itself: what must stay unchanged. */
export function outsideSnapshot(layout: TempLayout): Record<string, string> {
  const all = snapshot(layout.base);
  return Object.fromEntries(Object.entries(all).filter(([key]) => key !== 'ws' && !key.startsWith(`ws${path.sep}`)));
}
