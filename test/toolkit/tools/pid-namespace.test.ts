import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run } from './helpers/call-tool';
import { pidNamespaceTest } from './helpers/pid-namespace-support';
import { processesWith, uniqueSleep, waitUntil } from './helpers/process-state';
import { makeLayout, type TempLayout } from './helpers/temp-layout';

// sandbox 'none': no bubblewrap, so the command gets the PID namespace (where the machine allows one)
let layout: TempLayout;
let bash: AnyTool;

beforeEach(() => {
  layout = makeLayout();
  bash = findTool(harnessTools({ workspace: layout.workspace, sandbox: 'none' }), 'bash');
});
afterEach(() => layout.cleanup());

describe('without bubblewrap, a command runs in its own PID namespace', () => {
  pidNamespaceTest('the shell is process 1 with no visible parent, and /proc lists only its own processes', async () => {
    const output = await run(bash, { command: 'echo "$$ $PPID"; ls /proc | grep -c "^[0-9]"; test -e /proc/' + process.pid + ' && echo worker-visible; true' });
    const [header, ids, count, ...rest] = output.split('\n');
    expect(header).toBe('Exit code: 0');
    expect(ids).toBe('1 0');
    expect(Number(count)).toBeLessThan(10);
    expect(rest.join('\n')).not.toContain('worker-visible');
  });

  pidNamespaceTest('the command cannot unmount its /proc to uncover the one of the worker', async () => {
    const output = await run(bash, { command: 'umount /proc; umount -l /proc; ls /proc | grep -c "^[0-9]"' });
    expect(Number(output.trim().split('\n').pop())).toBeLessThan(10);
  });

  pidNamespaceTest('it still works in the workspace with the usual exit codes and a clean environment', async () => {
    expect(await run(bash, { command: 'pwd; echo made > made.txt; env | grep -c "^OPENAI" ; exit 3' })).toBe(`Exit code: 3\n${layout.workspace}\n0\n`);
    expect(fs.readFileSync(path.join(layout.workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });

  pidNamespaceTest('everything the command started dies with it, also a process that left its process group', async () => {
    const marker = uniqueSleep();
    const call = run(bash, { command: `setsid sleep ${marker} > /dev/null 2>&1 & sleep 0.5; echo started` });
    expect(await waitUntil(() => processesWith(marker).length > 0, 3_000)).toBe(true);
    expect(await call).toBe('Exit code: 0\nstarted\n');
    expect(await waitUntil(() => processesWith(marker).length === 0, 2_000)).toBe(true);
  });
});
