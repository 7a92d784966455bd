import * as path from 'node:path';
import type { AnyTool } from '../define-tool';
import { bashTool, clampShellTimeout, DEFAULT_SHELL_TIMEOUT_MS } from './bash';
import { editFileTool } from './edit-file';
import { globFilesTool } from './glob-files';
import { grepFilesTool } from './grep-files';
import type { HarnessEnv, SandboxSetting } from './harness-env';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { skillTool } from './skill';
import { writeFileTool } from './write-file';

export interface HarnessToolsOptions {
  /** The folder the tools work in; nothing outside it can be read or written through them. */
  workspace: string;
  /** How bash commands are isolated. Default 'auto': bubblewrap when it works here. */
  sandbox?: SandboxSetting;
  /** Default timeout of a bash command (at most 600 000). Default 120 000. */
  shellTimeoutMs?: number;
}

/**
 * The built-in tools of a coding agent, confined to one workspace: read_file, write_file,
 * edit_file, list_files, glob_files, grep_files, bash and skill.
 */
export function harnessTools(options: HarnessToolsOptions): AnyTool[] {
  const env: HarnessEnv = {
    workspace: path.resolve(options.workspace),
    sandbox: options.sandbox ?? 'auto',
    shellTimeoutMs: clampShellTimeout(options.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS),
  };
  return [
    readFileTool(env),
    writeFileTool(env),
    editFileTool(env),
    listFilesTool(env),
    globFilesTool(env),
    grepFilesTool(env),
    bashTool(env),
    skillTool(env),
  ];
}
