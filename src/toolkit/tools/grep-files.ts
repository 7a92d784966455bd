import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { MAX_TOOL_OUTPUT_CHARS, pathPermission, type HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';
import { dangerousPathReason } from './paths/dangerous-paths';
import { isInside } from './paths/real-path';
import { checkGlobPattern, filePatternMatcher } from './files/glob-pattern';
import { decodeUtf8, looksBinary } from './files/text-file';
import { skippedFolders, walkFiles } from './files/walk-files';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 300;
const MAX_VISITED = 200_000;

const input = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression searched in each line'),
  path: z.string().min(1).optional().describe('File or folder to search, relative to the workspace. Default: the workspace'),
  glob: z.string().min(1).optional().describe("Only files matching this glob, e.g. '*.ts' (any depth) or 'src/**/*.ts'"),
});

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new Error(`Invalid regular expression '${pattern}': ${(error as Error).message}`);
  }
}

function fileFilter(glob: string | undefined): (relative: string) => boolean {
  if (!glob) return () => true;
  checkGlobPattern(glob);
  const matches = filePatternMatcher(glob.replace(/^\.\//, ''));
  return glob.includes('/') ? matches : (relative) => matches(path.posix.basename(relative));
}

export function grepFilesTool(env: HarnessEnv) {
  return defineTool({
    name: 'grep_files',
    description:
      'Search the text files of the workspace for a regular expression; prints path:line:text for each ' +
      'matching line. Binary and non-UTF-8 files are skipped, so are sensitive files such as .env ' +
      '(unless path names them). .git and node_modules are skipped.',
    input,
    readOnly: true,
    patternField: 'path',
    source: 'builtin',
    permission: pathPermission(env, 'Approval needed to search this location', (i) => i.path),
    async execute({ pattern, path: target, glob }, ctx) {
      const regex = compile(pattern);
      const wanted = fileFilter(glob);
      const root = workspaceRoot(env.workspace);
      const shownPath = target ?? '.';
      const confined = confinePath(root, shownPath);
      const stat = await fs.stat(confined.real).catch(() => undefined);
      if (!stat) throw new Error(`Not found: '${shownPath}'.`);

      const approvedSensitive = dangerousPathReason(confined.relative) ?? dangerousPathReason(confined.realRelative);
      const candidates: Array<{ file: string; shown: string }> = [];
      let sensitive = 0;
      if (stat.isFile()) {
        candidates.push({ file: confined.real, shown: confined.relative });
      } else {
        for await (const entry of walkFiles(confined.real, { signal: ctx.signal, skipFolders: skippedFolders(glob ?? ''), maxEntries: MAX_VISITED })) {
          if (!entry.isFile && !entry.isSymlink) continue;
          if (!wanted(entry.relative)) continue;
          const shown = confined.relative === '.' ? entry.relative : `${confined.relative}/${entry.relative}`;
          let file = entry.absolute;
          if (entry.isSymlink) {
            file = await fs.realpath(entry.absolute).catch(() => '');
            if (!file || !isInside(root, file)) continue;
          }
          if (!approvedSensitive && (dangerousPathReason(shown) ?? dangerousPathReason(path.relative(root, file)))) {
            sensitive++;
            continue;
          }
          candidates.push({ file, shown });
        }
      }

      const lines: string[] = [];
      let size = 0;
      let omitted = 0;
      let skippedBinary = 0;
      for (const { file, shown } of candidates) {
        if (ctx.signal?.aborted) throw new Error('Cancelled.');
        const info = await fs.stat(file).catch(() => undefined);
        if (!info?.isFile() || info.size > MAX_FILE_BYTES) continue;
        const bytes = await fs.readFile(file);
        const text = looksBinary(bytes) ? undefined : decodeUtf8(bytes);
        if (text === undefined) {
          skippedBinary++;
          continue;
        }
        const fileLines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
        for (let i = 0; i < fileLines.length; i++) {
          const line = fileLines[i]!;
          if (!regex.test(line)) continue;
          const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [...]` : line;
          const hit = `${shown}:${i + 1}:${cut}`;
          if (size + hit.length + 1 > MAX_TOOL_OUTPUT_CHARS) {
            omitted++;
            continue;
          }
          lines.push(hit);
          size += hit.length + 1;
        }
      }

      const notes: string[] = [];
      if (omitted > 0) notes.push(`[... output truncated: ${omitted} more matching lines not shown; narrow the pattern, path or glob ...]`);
      if (skippedBinary > 0) notes.push(`(${skippedBinary} binary or non-UTF-8 file${skippedBinary === 1 ? '' : 's'} skipped)`);
      if (sensitive > 0) {
        notes.push(`(${sensitive} sensitive file${sensitive === 1 ? '' : 's'} such as .env skipped; name one in path to search it, which asks for approval)`);
      }
      if (lines.length === 0) return [`No matches for /${pattern}/ in '${shownPath}'.`, ...notes].join('\n');
      return [...lines, ...notes].join('\n');
    },
  });
}
