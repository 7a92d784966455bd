import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { pathPermission, type HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';

const input = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace; missing folders are created'),
  content: z.string().describe('The complete new content of the file'),
});

export function writeFileTool(env: HarnessEnv) {
  return defineTool({
    name: 'write_file',
    description: 'Create a file in the workspace or replace its whole content. Folders on the way are created.',
    input,
    edits: true,
    patternField: 'path',
    source: 'builtin',
    permission: pathPermission(env, 'Approval needed to write this file', (i) => i.path),
    async execute({ path: file, content }) {
      const confined = confinePath(workspaceRoot(env.workspace), file);
      const existing = await fs.stat(confined.real).catch(() => undefined);
      if (existing?.isDirectory()) throw new Error(`'${file}' is a folder; give a file path.`);
      await fs.mkdir(path.dirname(confined.real), { recursive: true });
      await fs.writeFile(confined.real, content, 'utf8');
      const bytes = Buffer.byteLength(content, 'utf8');
      return `${existing ? 'Overwrote' : 'Created'} '${file}' (${bytes} bytes).`;
    },
  });
}
