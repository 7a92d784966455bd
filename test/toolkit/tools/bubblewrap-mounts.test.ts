import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemMounts } from '../../../src/toolkit/tools/sandbox/bubblewrap-mounts';

/** The mounts as `[option, source, destination]` triples (`--symlink` has target and link). */
function triples(args: string[]): string[][] {
  const result: string[][] = [];
  for (let i = 0; i < args.length; i += 3) result.push(args.slice(i, i + 3));
  return result;
}

describe('the system part of the bubblewrap file system', () => {
  test('system folders are bound read-only, and links into /usr stay links', () => {
    const mounts = triples(systemMounts());
    for (const folder of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
      const stat = fs.lstatSync(folder, { throwIfNoEntry: false });
      const mount = mounts.find((triple) => triple[2] === folder);
      if (!stat) expect(mount).toBeUndefined();
      else if (stat.isSymbolicLink()) expect(mount).toEqual(['--symlink', fs.readlinkSync(folder), folder]);
      else expect(mount).toEqual(['--ro-bind', folder, folder]);
    }
  });

  test('of /etc only what programs need to start, never accounts or tool configuration', () => {
    const etc = triples(systemMounts()).filter((triple) => triple[2]!.startsWith('/etc/')).map((triple) => triple[2]);
    expect(etc.length).toBeGreaterThan(0);
    for (const entry of etc) expect(entry).toMatch(/^\/etc\/(alternatives|ld\.so\.cache|ld\.so\.conf|ld\.so\.conf\.d|localtime|nsswitch\.conf)$/);
    for (const [option, source, destination] of triples(systemMounts())) {
      expect(option).not.toBe('--bind');
      if (option !== '--symlink') expect(source).toBe(destination);
    }
  });

  test("the worker's own Node.js is added when it lives outside the system folders", () => {
    const prefix = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'node-prefix-')));
    const saved = process.execPath;
    try {
      fs.mkdirSync(path.join(prefix, 'bin'));
      fs.mkdirSync(path.join(prefix, 'lib', 'node_modules'), { recursive: true });
      fs.writeFileSync(path.join(prefix, 'bin', 'node'), '');
      process.execPath = path.join(prefix, 'bin', 'node');
      const mounts = triples(systemMounts());
      expect(mounts).toContainEqual(['--ro-bind', path.join(prefix, 'bin'), path.join(prefix, 'bin')]);
      expect(mounts).toContainEqual(['--ro-bind', path.join(prefix, 'lib', 'node_modules'), path.join(prefix, 'lib', 'node_modules')]);
      expect(mounts.some((triple) => triple[1] === prefix)).toBe(false);
    } finally {
      process.execPath = saved;
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  });
});
