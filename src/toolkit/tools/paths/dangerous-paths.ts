import * as path from 'node:path';

/**
 * Files and folders that hold secrets or change how code runs. Touching them (reading
 * included) needs a person's approval. Matching is case-insensitive and works on path
 * components, so it catches the same name at any depth.
 */

const SECRET_FOLDERS: Record<string, string> = {
  '.ssh': 'SSH keys and configuration',
  '.gnupg': 'GnuPG keys',
  '.aws': 'AWS credentials',
  '.azure': 'Azure credentials',
  '.kube': 'Kubernetes credentials',
  '.docker': 'Docker registry credentials',
  '.password-store': 'a password store',
};

const SECRET_FILES: Record<string, string> = {
  '.npmrc': 'npm registry tokens',
  '.pypirc': 'PyPI upload credentials',
  '.netrc': 'login credentials',
  _netrc: 'login credentials',
  '.pgpass': 'PostgreSQL passwords',
  '.git-credentials': 'git credentials',
  '.gitconfig': 'git configuration that can run commands',
  '.htpasswd': 'password hashes',
  '.vault-token': 'a Vault token',
  '.envrc': 'environment variables loaded by direnv',
  '.boto': 'cloud credentials',
  '.s3cfg': 'S3 credentials',
  '.dockercfg': 'Docker registry credentials',
  authorized_keys: 'the keys allowed to log in over SSH',
  '.bashrc': 'shell start-up commands',
  '.bash_profile': 'shell start-up commands',
  '.bash_login': 'shell start-up commands',
  '.profile': 'shell start-up commands',
  '.zshrc': 'shell start-up commands',
  '.zprofile': 'shell start-up commands',
  '.zshenv': 'shell start-up commands',
};

/** Files of /proc that describe the machine, not a process; everything else there is process information. */
export const HARMLESS_PROC_FILES = ['cpuinfo', 'meminfo', 'loadavg', 'uptime', 'version', 'stat'];

const PROCESS_INFORMATION = 'information about running processes: their environment, memory, command line or open files';

/**
 * Whether an absolute path is /proc or lies below it, apart from the few machine-wide files.
 * Through /proc/<pid>, /proc/self and the like a command reads the worker's environment
 * (and so its API keys) or memory.
 */
export function isProcessInformation(absolute: string): boolean {
  const normalized = path.posix.normalize(absolute.replace(/\\/g, '/')).toLowerCase();
  const match = /^\/proc(?:\/+([^/]+)(\/.*)?)?\/?$/.exec(normalized);
  if (!match) return false;
  return !(match[1] !== undefined && match[2] === undefined && HARMLESS_PROC_FILES.includes(match[1]));
}

const HARMLESS_ENV_SUFFIXES = new Set(['example', 'sample', 'template', 'dist', 'defaults']);

const SYSTEM_PATHS: Array<[RegExp, string]> = [
  [/^\/etc\/(passwd|shadow|gshadow|sudoers|sudoers\.d|ssh|crontab|cron\.[^/]+)(\/|$)/, 'system accounts, passwords or privileged configuration'],
  [/^\/root(\/|$)/, "the root user's home folder"],
  [/^\/boot(\/|$)/, 'the boot files'],
  [/^\/(var\/)?run\/docker\.sock$/, 'the Docker socket (root access to the host)'],
  [/^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|loop|dm-|md|mapper|disk)/, 'a disk device'],
];

function fileReason(name: string): string | undefined {
  if (name in SECRET_FILES) return SECRET_FILES[name];
  const env = /^\.env(?:\.(.+))?$/.exec(name);
  if (env && !(env[1] && HARMLESS_ENV_SUFFIXES.has(env[1]))) return 'environment variables, often secrets';
  if (/^id_(rsa|dsa|ecdsa|ed25519)/.test(name)) return 'an SSH private key';
  if (/^credentials(\.[a-z0-9]+)?$/.test(name)) return 'credentials';
  if (/\.(pem|key|p12|pfx|jks|keystore)$/.test(name)) return 'a private key or certificate store';
  return undefined;
}

/**
 * Why the path is dangerous, or undefined. A relative path is taken as relative to the
 * workspace (so the workspace's own location never matters); an absolute one is checked as
 * a whole, including the system files.
 */
export function dangerousPathReason(candidate: string): string | undefined {
  const normalized = candidate.replace(/\\/g, '/').toLowerCase();
  if (normalized.startsWith('/')) {
    if (isProcessInformation(normalized)) return describe(candidate, PROCESS_INFORMATION);
    const tidy = path.posix.normalize(normalized);
    for (const [pattern, reason] of SYSTEM_PATHS) {
      if (pattern.test(normalized) || pattern.test(tidy)) return describe(candidate, reason);
    }
  }
  const parts = normalized.split('/').filter((part) => part !== '' && part !== '.');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part in SECRET_FOLDERS) return describe(candidate, SECRET_FOLDERS[part]!);
    if (part === '.git' && (parts[i + 1] === 'config' || parts[i + 1] === 'hooks')) {
      return describe(candidate, parts[i + 1] === 'config' ? 'git configuration that can run commands' : 'git hooks that run on every commit');
    }
    if (part === '.config' && parts[i + 1] === 'gcloud') return describe(candidate, 'Google Cloud credentials');
    const reason = fileReason(part);
    if (reason) return describe(candidate, reason);
  }
  return undefined;
}

function describe(candidate: string, reason: string): string {
  return `'${candidate}' is a sensitive location (${reason})`;
}
