import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { harnessTools } from '../../../src/toolkit/tools/harness-tools';
import type { AnyTool } from '../../../src/toolkit/define-tool';
import { findTool, run } from './helpers/call-tool';
import { sandboxTest } from './helpers/bwrap-support';
import { makeLayout, outsideSnapshot, type TempLayout } from './helpers/temp-layout';

let layout: TempLayout;

const bashWith = (sandbox: 'none' | 'bwrap'): AnyTool => findTool(harnessTools({ workspace: layout.workspace, sandbox }), 'bash');

beforeEach(() => {
  layout = makeLayout();
});
afterEach(() => layout.cleanup());

function connectCommand(port: number): string {
  const script =
    `const s=require("net").connect(${port},"127.0.0.1");` +
    `s.on("connect",()=>{console.log("CONNECTED");process.exit(0)});` +
    `s.on("error",e=>{console.log("NETERR "+e.code);process.exit(3)})`;
  return `${process.execPath} -e '${script}'`;
}

describe('the bubblewrap sandbox', () => {
  sandboxTest('cannot reach the network, not even a loopback port of the worker', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const plain = await run(bashWith('none'), { command: connectCommand(port) });
      expect(plain).toMatch(/^Exit code: 0\nCONNECTED/);
      expect(connections).toBe(1);

      const sandboxed = await run(bashWith('bwrap'), { command: connectCommand(port) });
      expect(sandboxed).toMatch(/^Exit code: 3\nNETERR (ECONNREFUSED|ENETUNREACH|EACCES)/);
      expect(connections).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  sandboxTest('cannot write outside the workspace', async () => {
    const target = path.join(layout.outside, 'written.txt');
    const before = outsideSnapshot(layout);
    const sandboxed = await run(bashWith('bwrap'), {
      command: `echo pwned > ${target}; echo pwned >> ${path.join(layout.outside, 'secret.txt')}; rm -rf ${layout.outside}; echo pwned > outlink/x`,
    });
    expect(sandboxed).not.toMatch(/^Exit code: 0/);
    expect(outsideSnapshot(layout)).toEqual(before);

    const systemFile = `/etc/durable-agent-sandbox-${process.pid}`;
    try {
      const system = await run(bashWith('bwrap'), { command: `touch ${systemFile}` });
      expect(system).toMatch(/Read-only file system/);
      expect(fs.existsSync(systemFile)).toBe(false);
    } finally {
      fs.rmSync(systemFile, { force: true });
    }

    // the same command without the sandbox does write: the assertions above can fail
    await run(bashWith('none'), { command: `echo pwned > ${target}` });
    expect(fs.readFileSync(target, 'utf8')).toBe('pwned\n');
  });

  sandboxTest("does not see the worker's OPENAI_API_KEY", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-sandbox-secret';
    try {
      const output = await run(bashWith('bwrap'), {
        command: 'echo "key=[$OPENAI_API_KEY]"; env; cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n"',
      });
      expect(output).toContain('key=[]');
      expect(output).not.toContain('sk-test-sandbox-secret');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  sandboxTest('has its own process namespace', async () => {
    const output = await run(bashWith('bwrap'), { command: 'ls /proc | grep -c "^[0-9]"' });
    const count = Number(output.split('\n')[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(10);
  });
});
