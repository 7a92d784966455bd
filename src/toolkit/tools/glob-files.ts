import * as fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { MAX_TOOL_OUTPUT_CHARS, pathPermission, type HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';
import { checkGlobPattern, filePatternMatcher } from './files/glob-pattern';
import { skippedFolders, walkFiles } from './files/walk-files';

const MAX_RESULTS = 1000;
const MAX_VISITED = 200_000;

const input = z.object({
  pattern: z.string().min(1).describe("Glob relative to path, e.g. '**/*.ts', 'src/*.json', '*.{md,txt}'"),
  path: z.string().min(1).optional().describe('Folder to search, relative to the workspace. Default: the workspace'),
});

export function globFilesTool(env: HarnessEnv) {
  return defineTool({
    name: 'glob_files',
    description:
      "Find files of the workspace whose path (relative to path) matches a glob. '*' stays within one folder, " +
      "'**' crosses folders. Paths are listed relative to the workspace, in name order. " +
      '.git and node_modules are skipped unless the pattern names them.',
    input,
    readOnly: true,
    patternField: 'pattern',
    source: 'builtin',
    permission: pathPermission(env, 'Approval needed to search this folder', (i) => i.path),
    async execute({ pattern, path: folder }, ctx) {
      checkGlobPattern(pattern);
      const shownPath = folder ?? '.';
      const confined = confinePath(workspaceRoot(env.workspace), shownPath);
      const stat = await fs.stat(confined.real).catch(() => undefined);
      if (!stat?.isDirectory()) throw new Error(`Folder not found: '${shownPath}'.`);
      const matches = filePatternMatcher(pattern.replace(/^\.\//, ''));
      const found: string[] = [];
      let size = 0;
      let more = 0;
      for await (const entry of walkFiles(confined.real, { signal: ctx.signal, skipFolders: skippedFolders(pattern), maxEntries: MAX_VISITED })) {
        if (!matches(entry.relative)) continue;
        const shown = confined.relative === '.' ? entry.relative : `${confined.relative}/${entry.relative}`;
        if (found.length >= MAX_RESULTS || size + shown.length + 1 > MAX_TOOL_OUTPUT_CHARS) {
          more++;
          continue;
        }
        found.push(shown);
        size += shown.length + 1;
      }
      if (found.length === 0) return `No files match '${pattern}' in '${shownPath}'.`;
      if (more > 0) found.push(`[... output truncated: ${more} more matching files not shown; narrow the pattern ...]`);
      return found.join('\n');
    },
  });
}
