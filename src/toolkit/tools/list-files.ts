import * as fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { MAX_TOOL_OUTPUT_CHARS, pathPermission, type HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';

const MAX_ENTRIES = 1000;

const input = z.object({
  path: z.string().min(1).optional().describe('Folder, relative to the workspace. Default: the workspace itself'),
});

export function listFilesTool(env: HarnessEnv) {
  return defineTool({
    name: 'list_files',
    description:
      "List one folder of the workspace (not recursive). Folders end with '/', symbolic links with '@'. " +
      'Use glob_files to search a whole tree.',
    input,
    readOnly: true,
    patternField: 'path',
    source: 'builtin',
    permission: pathPermission(env, 'Approval needed to list this folder', (i) => i.path),
    async execute({ path: folder }) {
      const shownPath = folder ?? '.';
      const confined = confinePath(workspaceRoot(env.workspace), shownPath);
      const stat = await fs.stat(confined.real).catch(() => undefined);
      if (!stat) throw new Error(`Folder not found: '${shownPath}'.`);
      if (!stat.isDirectory()) throw new Error(`'${shownPath}' is a file, not a folder; use read_file to read it.`);
      const entries = await fs.readdir(confined.real, { withFileTypes: true });
      if (entries.length === 0) return `'${shownPath}' is empty.`;
      const names = entries
        .map((entry) => entry.name + (entry.isDirectory() ? '/' : entry.isSymbolicLink() ? '@' : ''))
        .sort();
      const lines: string[] = [];
      let size = 0;
      for (const name of names.slice(0, MAX_ENTRIES)) {
        if (size + name.length + 1 > MAX_TOOL_OUTPUT_CHARS) break;
        lines.push(name);
        size += name.length + 1;
      }
      if (lines.length < names.length) lines.push(`[... ${names.length - lines.length} more entries not shown (${names.length} in all) ...]`);
      return lines.join('\n');
    },
  });
}
