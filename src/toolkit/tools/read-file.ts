import { z } from 'zod';
import { defineTool } from '../define-tool';
import { MAX_TOOL_OUTPUT_CHARS, pathPermission, type HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';
import { describeUnreadable, readFileText } from './files/text-file';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

const input = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace'),
  offset: z.number().int().min(1).optional().describe('First line to show (1-based). Default 1'),
  limit: z.number().int().min(1).optional().describe(`How many lines to show. Default ${DEFAULT_LIMIT}`),
});

function numbered(lineNumber: number, line: string): string {
  const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [... line cut at ${MAX_LINE_CHARS} of ${line.length} characters]` : line;
  return `${String(lineNumber).padStart(6)}\t${shown}`;
}

export function readFileTool(env: HarnessEnv) {
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file from the workspace. Lines are numbered; long files are shown a page at a time ' +
      `(${DEFAULT_LIMIT} lines by default) and the reply says how to read the next page with offset.`,
    input,
    readOnly: true,
    patternField: 'path',
    source: 'builtin',
    permission: pathPermission(env, 'Approval needed to read this file', (i) => i.path),
    async execute({ path: file, offset, limit }) {
      const confined = confinePath(workspaceRoot(env.workspace), file);
      const content = await readFileText(confined.real, MAX_FILE_BYTES);
      if (content.kind !== 'text') return describeUnreadable(file, content, MAX_FILE_BYTES);
      if (content.text === '') return `'${file}' is empty.`;
      const lines = content.text.split(/\r?\n/);
      if (lines[lines.length - 1] === '') lines.pop();
      const first = offset ?? 1;
      if (first > lines.length) {
        return `'${file}' has ${lines.length} lines; offset ${first} is past the end.`;
      }
      const last = Math.min(lines.length, first - 1 + (limit ?? DEFAULT_LIMIT));
      const out: string[] = [];
      let size = 0;
      let shownLast = first - 1;
      for (let n = first; n <= last; n++) {
        const line = numbered(n, lines[n - 1]!);
        if (out.length > 0 && size + line.length + 1 > MAX_TOOL_OUTPUT_CHARS) break;
        out.push(line);
        size += line.length + 1;
        shownLast = n;
      }
      if (shownLast < lines.length) {
        out.push(
          `\n[Showing lines ${first}-${shownLast} of ${lines.length}. ` +
            `To read more, call read_file with offset=${shownLast + 1}.]`,
        );
      }
      return out.join('\n');
    },
  });
}
