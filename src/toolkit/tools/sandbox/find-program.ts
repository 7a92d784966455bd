import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where util-linux and friends live on every Linux distribution. */
const SYSTEM_FOLDERS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

function isExecutable(candidate: string): boolean {
  try {
    fs.accessSync(candidate, fs.constants.X_OK);
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute path of a system program: from PATH, else from the standard system folders,
 * so that a worker started with a narrow PATH still finds it.
 */
export function findSystemProgram(name: string, searchPath: string = process.env.PATH ?? ''): string | undefined {
  const folders = [...searchPath.split(path.delimiter).filter((folder) => path.isAbsolute(folder)), ...SYSTEM_FOLDERS];
  return folders.map((folder) => path.join(folder, name)).find(isExecutable);
}
