import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { PermissionDecision } from '../../common/permissions';
import { MAX_TOOL_OUTPUT_CHARS, type HarnessEnv } from './harness-env';
import { checkPathAccess } from './paths/check-path-access';
import { confinePath, workspaceRoot } from './paths/confine-path';
import { decodeUtf8 } from './files/text-file';
import { truncateText } from '../tool-result';

const SKILLS_FOLDER = 'skills';
const SKILL_FILE = 'SKILL.md';
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const input = z.object({
  name: z.string().min(1).optional().describe('Skill to show; leave out to list the skills'),
});

/** The `description:` of the front matter, else the first line of prose. */
export function skillDescription(markdown: string): string {
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  let start = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.indexOf('---', 1);
    const front = end === -1 ? [] : lines.slice(1, end);
    const found = front.find((line) => /^description\s*:/i.test(line));
    if (found) return found.replace(/^description\s*:\s*/i, '').replace(/^(['"])(.*)\1$/, '$2').trim();
    start = end === -1 ? 0 : end + 1;
  }
  const prose = lines.slice(start).find((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  return prose?.trim() ?? '(no description)';
}

function skillFile(name: string): string {
  return `${SKILLS_FOLDER}/${name}/${SKILL_FILE}`;
}

async function readSkill(root: string, name: string): Promise<string | undefined> {
  const confined = confinePath(root, skillFile(name));
  const bytes = await fs.readFile(confined.real).catch(() => undefined);
  if (!bytes) return undefined;
  return decodeUtf8(bytes) ?? `(${skillFile(name)} is not UTF-8 text)`;
}

async function listSkills(root: string): Promise<string> {
  const folder = confinePath(root, SKILLS_FOLDER);
  const entries = await fs.readdir(folder.real, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return `No skills: the workspace has no ${SKILLS_FOLDER}/ folder.`;
  const lines: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    if (!SKILL_NAME.test(entry.name)) continue;
    let markdown: string | undefined;
    try {
      markdown = await readSkill(root, entry.name);
    } catch {
      continue;
    }
    if (markdown !== undefined) lines.push(`- ${entry.name}: ${skillDescription(markdown)}`);
  }
  if (lines.length === 0) return `No skills: no ${SKILLS_FOLDER}/<name>/${SKILL_FILE} files in the workspace.`;
  return truncateText(`Available skills (call skill with a name to read one):\n${lines.join('\n')}`, MAX_TOOL_OUTPUT_CHARS);
}

export function skillTool(env: HarnessEnv) {
  return defineTool({
    name: 'skill',
    description:
      `List the skills of the workspace (${SKILLS_FOLDER}/<name>/${SKILL_FILE}) with their descriptions, ` +
      'or show the instructions of one skill by name.',
    input,
    readOnly: true,
    patternField: 'name',
    source: 'builtin',
    permission: (i: { name?: string }): PermissionDecision | undefined => {
      if (i.name !== undefined && !SKILL_NAME.test(i.name)) return { behavior: 'deny', safety: true, reason: `Invalid skill name '${i.name}'.` };
      let root: string;
      try {
        root = workspaceRoot(env.workspace);
      } catch (error) {
        return { behavior: 'deny', safety: true, reason: (error as Error).message };
      }
      const target = i.name === undefined ? SKILLS_FOLDER : skillFile(i.name);
      return checkPathAccess(root, target, 'Approval needed to read this skill');
    },
    async execute({ name }) {
      const root = workspaceRoot(env.workspace);
      if (name === undefined) return listSkills(root);
      if (!SKILL_NAME.test(name)) throw new Error(`Invalid skill name '${name}': use letters, digits, '.', '_' and '-'.`);
      const markdown = await readSkill(root, name);
      if (markdown === undefined) {
        throw new Error(`Skill '${name}' not found (no ${skillFile(name)}). Call skill without a name to list the skills.`);
      }
      return truncateText(`Skill '${name}' (${path.posix.join(SKILLS_FOLDER, name)}/):\n\n${markdown}`, MAX_TOOL_OUTPUT_CHARS);
    },
  });
}
