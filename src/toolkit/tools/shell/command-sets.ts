export const PRIVILEGE_COMMANDS = new Set(['sudo', 'doas', 'su', 'pkexec', 'runuser', 'chroot', 'nsenter', 'unshare']);

/** Builtins that change how later words and commands are read. */
export const SHELL_STATE_COMMANDS = new Set(['alias', 'enable', 'hash', 'trap', 'shopt', 'bind']);

export const DECLARE_COMMANDS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'busybox']);

export const INTERPRETERS = new Set(['python', 'python2', 'python3', 'node', 'nodejs', 'perl', 'ruby', 'php', 'deno', 'bun', 'lua', 'tclsh', 'Rscript', 'osascript']);

export const DISK_COMMANDS = new Set(['mke2fs', 'mkswap', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'blkdiscard', 'mkdosfs', 'badblocks', 'hdparm', 'losetup', 'cryptsetup']);

export const POWER_COMMANDS = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'telinit', 'init']);

export const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'hybrid-sleep', 'rescue', 'emergency', 'isolate', 'soft-reboot']);

export const REMOVE_COMMANDS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm']);

export const PERMISSION_COMMANDS = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl']);

/** File operations that accept_edits mode allows when every target is inside the workspace. */
export const EDIT_COMMANDS = new Set(['mkdir', 'touch', 'cp', 'mv', 'rm', 'rmdir', 'unlink', 'tee']);

/**
 * Variables that change which program runs or inject code into it; setting them is how a
 * harmless-looking command is turned into another one.
 */
export function isSensitiveVariable(name: string): boolean {
  return (
    /^(LD_|GIT_|DYLD_)/.test(name) ||
    ['PATH', 'BASH_ENV', 'ENV', 'IFS', 'PS4', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'GLOBIGNORE', 'CDPATH', 'HOME', 'PAGER', 'MANPAGER', 'EDITOR', 'VISUAL', 'BROWSER'].includes(name)
  );
}

export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
