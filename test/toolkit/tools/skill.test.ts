import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, permissionOf, run } from './helpers/call-tool';
import { makeLayout, outsideSnapshot, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;
let skill: AnyTool;

const write = (name: string, content: string): void => {
  fs.mkdirSync(path.dirname(path.join(layout.workspace, name)), { recursive: true });
  fs.writeFileSync(path.join(layout.workspace, name), content);
};

beforeEach(() => {
  layout = makeLayout();
  skill = findTool(harnessTools({ workspace: layout.workspace, sandbox: 'none' }), 'skill');
});
afterEach(() => layout.cleanup());

describe('skill', () => {
  test('says when there are no skills', async () => {
    expect(await run(skill, {})).toMatch(/^No skills: the workspace has no skills\/ folder/);
  });

  test('lists the skills with their description lines', async () => {
    write('skills/release/SKILL.md', '---\nname: release\ndescription: "Cut a release: bump, tag, publish."\n---\n# Release\nSteps...\n');
    write('skills/debugging/SKILL.md', '# Debugging\n\nFind the failing test first, then bisect.\nMore text.\n');
    write('skills/empty-folder/notes.txt', 'not a skill');
    expect(await run(skill, {})).toBe(
      [
        'Available skills (call skill with a name to read one):',
        '- debugging: Find the failing test first, then bisect.',
        '- release: Cut a release: bump, tag, publish.',
      ].join('\n'),
    );
  });

  test('shows one skill', async () => {
    write('skills/release/SKILL.md', '# Release\nRun the tests, then tag.\n');
    expect(await run(skill, { name: 'release' })).toBe("Skill 'release' (skills/release/):\n\n# Release\nRun the tests, then tag.\n");
  });

  test('explains an unknown skill', async () => {
    await expect(run(skill, { name: 'nope' })).rejects.toThrow(/Skill 'nope' not found/);
  });

  test('refuses names that climb out and skills that link out', async () => {
    fs.mkdirSync(path.join(layout.outside, 'evil'));
    fs.writeFileSync(path.join(layout.outside, 'evil', 'SKILL.md'), 'outside instructions');
    fs.mkdirSync(path.join(layout.workspace, 'skills'));
    fs.symlinkSync(path.join(layout.outside, 'evil'), path.join(layout.workspace, 'skills', 'linked'));
    const before = outsideSnapshot(layout);

    expect(await permissionOf(skill, { name: '../outside' })).toEqual(expect.objectContaining({ behavior: 'deny', safety: true }));
    await expect(run(skill, { name: '../outside' })).rejects.toThrow(/Invalid skill name/);
    expect(await permissionOf(skill, { name: 'linked' })).toEqual(expect.objectContaining({ behavior: 'deny', safety: true }));
    await expect(run(skill, { name: 'linked' })).rejects.toThrow(/Access refused/);
    expect(await run(skill, {})).not.toContain('outside instructions');
    expect(outsideSnapshot(layout)).toEqual(before);
  });
});
