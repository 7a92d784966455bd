import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run } from './helpers/call-tool';
import { sandboxTest } from './helpers/bwrap-support';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;

const bashWith = (sandbox: 'none' | 'bwrap'): AnyTool => findTool(harnessTools({ workspace: layout.workspace, sandbox }), 'bash');

beforeEach(() => {
  layout = makeLayout();
});
afterEach(() => layout.cleanup());

const hasSystemPython = ['/usr/bin/python3', '/usr/local/bin/python3', '/bin/python3'].some((candidate) => fs.existsSync(candidate));

describe('what a command sees under bubblewrap', () => {
  sandboxTest('not the files beside the workspace, not even through a link inside it', async () => {
    const secret = path.join(layout.outside, 'secret.txt');
    const reads = [`cat ${secret}`, 'cat outfile', 'cat outlink/secret.txt', `ls ${layout.outside}`];
    for (const command of reads) {
      const output = await run(bashWith('bwrap'), { command });
      expect({ command, output }).toEqual({ command, output: expect.stringMatching(/^Exit code: [12]\n.*No such file or directory/) });
      expect(output).not.toContain('top secret');
    }
    expect(await run(bashWith('bwrap'), { command: `ls ${layout.base}` })).toBe('Exit code: 0\nws\n');
    // without bubblewrap the same reads succeed: the assertions above can fail
    expect(await run(bashWith('none'), { command: `cat ${secret}` })).toBe('Exit code: 0\ntop secret\n');
    expect(await run(bashWith('none'), { command: 'cat outfile' })).toBe('Exit code: 0\ntop secret\n');
  });

  sandboxTest('not home folders, other projects or the configuration and accounts in /etc', async () => {
    const hidden = ['/root', '/home', process.cwd(), '/etc/passwd', '/etc/shadow', '/etc/hostname', '/etc/npmrc', '/etc/gitconfig', '/opt', '/srv', '/mnt'];
    expect(hidden.filter((entry) => fs.existsSync(entry))).toEqual(expect.arrayContaining(['/etc/passwd', process.cwd()]));
    const output = await run(bashWith('bwrap'), { command: hidden.map((entry) => `test -e ${entry} && echo "visible: ${entry}"`).join('; ') + '; echo checked' });
    expect(output).toBe('Exit code: 0\nchecked\n');
    expect(await run(bashWith('bwrap'), { command: 'ls /' })).toMatch(/^Exit code: 0\n(bin|dev|etc|lib|lib32|lib64|libx32|proc|sbin|tmp|usr|var)(\n(bin|dev|etc|lib|lib32|lib64|libx32|proc|sbin|tmp|usr|var))*\n$/);
  });

  sandboxTest('the programs a coding agent uses still run', async () => {
    const commands = [
      'bash --version | head -1',
      'ls /usr/bin | grep -c . | sed "s/^[0-9][0-9]*$/many/"',
      'echo "b\na" | sort | cat',
      'find . -name main.ts',
      'git --version | cut -d" " -f1',
      'git init -q repo && git -C repo status --short && echo git-ok',
      'node -e "console.log(6 * 7)"',
      ...(hasSystemPython ? ['python3 -c "print(6 * 7)"'] : []),
      'date +%Y | grep -c "^20"',
    ];
    const output = await run(bashWith('bwrap'), { command: commands.join(' && ') });
    expect(output).toMatch(/^Exit code: 0\nGNU bash/);
    expect(output).toContain('\nmany\n');
    expect(output).toContain('\na\nb\n');
    expect(output).toContain('./src/main.ts\n');
    expect(output).toContain('\ngit\ngit-ok\n42\n');
    if (hasSystemPython) expect(output).toContain('\n42\n42\n');
  });

  sandboxTest('/tmp is its own, and the rest of the root is read-only', async () => {
    const output = await run(bashWith('bwrap'), { command: 'echo x > /tmp/t && cat /tmp/t; touch /made-here 2>&1; mkdir /usr/made-here 2>&1; true' });
    expect(output).toMatch(/^Exit code: 0\nx\n/);
    expect(output).toMatch(/\/made-here.*Read-only file system/);
    expect(fs.existsSync('/made-here')).toBe(false);
  });
});
