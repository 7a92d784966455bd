import * as fs from 'node:fs';
import * as path from 'node:path';

/** Programs and libraries; on merged-/usr systems all but /usr are symbolic links into it. */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The few files of /etc that programs need to start: the dynamic loader's cache and
 * configuration, Debian's alternatives (`awk`, `editor`, ... are links through them), the
 * time zone, name-service configuration. No accounts, no credentials, no tool configuration
 * (a global npmrc or gitconfig can hold tokens).
 */
const ETC_FILES = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/nsswitch.conf'];

function lstat(candidate: string): fs.Stats | undefined {
  return fs.lstatSync(candidate, { throwIfNoEntry: false });
}

function isSystemPath(candidate: string): boolean {
  return SYSTEM_FOLDERS.some((folder) => candidate === folder || candidate.startsWith(`${folder}/`));
}

/**
 * The worker's own Node.js when it is installed outside the system folders (nvm, a tarball
 * in /opt): its bin folder and, beside it, the global node_modules that npm and npx run from.
 */
function nodeInstallation(): string[] {
  let bin: string;
  try {
    bin = path.dirname(fs.realpathSync(process.execPath));
  } catch {
    return [];
  }
  if (isSystemPath(bin)) return [];
  const modules = path.join(path.dirname(bin), 'lib', 'node_modules');
  return [bin, ...(path.basename(bin) === 'bin' && lstat(modules)?.isDirectory() ? [modules] : [])];
}

/** bubblewrap arguments that make the system's programs, libraries and a minimal /etc visible, read-only. */
export function systemMounts(): string[] {
  const args: string[] = [];
  for (const folder of SYSTEM_FOLDERS) {
    const stat = lstat(folder);
    if (stat?.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(folder), folder);
    else if (stat?.isDirectory()) args.push('--ro-bind', folder, folder);
  }
  for (const file of ETC_FILES) if (fs.existsSync(file)) args.push('--ro-bind', file, file);
  for (const folder of nodeInstallation()) args.push('--ro-bind', folder, folder);
  return args;
}
