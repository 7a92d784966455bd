import * as fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { pathPermission, type HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';
import { describeUnreadable, readFileText } from './files/text-file';

const MAX_FILE_BYTES = 20 * 1024 * 1024;

const input = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace'),
  old_string: z.string().min(1).describe('Exact text to replace (whitespace and indentation included)'),
  new_string: z.string().describe('Text to put in its place'),
  replace_all: z.boolean().optional().describe('Replace every occurrence; otherwise old_string must occur exactly once'),
});

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

export function editFileTool(env: HarnessEnv) {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace exact text in a file of the workspace. old_string must occur exactly once ' +
      '(add surrounding lines to make it unique) unless replace_all is true.',
    input,
    edits: true,
    patternField: 'path',
    source: 'builtin',
    permission: pathPermission(env, 'Approval needed to edit this file', (i) => i.path),
    async execute({ path: file, old_string, new_string, replace_all }) {
      if (old_string === new_string) throw new Error('old_string and new_string are the same; nothing to change.');
      const confined = confinePath(workspaceRoot(env.workspace), file);
      const exists = await fs.stat(confined.real).catch(() => undefined);
      if (!exists) throw new Error(`File not found: '${file}'. Use write_file to create it.`);
      const content = await readFileText(confined.real, MAX_FILE_BYTES);
      if (content.kind !== 'text') throw new Error(describeUnreadable(file, content, MAX_FILE_BYTES));
      const count = countOccurrences(content.text, old_string);
      if (count === 0) throw new Error(`old_string was not found in '${file}'. Read the file and copy the text exactly.`);
      if (count > 1 && !replace_all) {
        throw new Error(
          `old_string was found ${count} times in '${file}'. Add surrounding lines to make it unique, ` +
            'or set replace_all to replace every occurrence.',
        );
      }
      const updated = content.text.split(old_string).join(new_string);
      await fs.writeFile(confined.real, content.bom ? `\uFEFF${updated}` : updated, 'utf8');
      return `Edited '${file}': replaced ${count} occurrence${count === 1 ? '' : 's'}.`;
    },
  });
}
