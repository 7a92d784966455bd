import type { SandboxSetting } from '../../../src/toolkit/tools/harness-env';
import type { Isolation } from '../../../src/toolkit/tools/sandbox/isolation';

type Probe = { ok: true; prefix?: string[] } | { ok: false; reason: string };

const PREFIX = ['/usr/bin/unshare', '--fork', '--pid', '--mount-proc', '--'];

/** chooseSandbox in a fresh module registry (so it warns afresh), with both probes answering as given. */
async function choose(setting: SandboxSetting, bwrap: Probe, namespace: Probe): Promise<{ isolation?: Isolation; error?: string; warnings: string[] }> {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    let chooseSandbox!: (setting: SandboxSetting) => Promise<Isolation>;
    jest.isolateModules(() => {
      jest.doMock('../../../src/toolkit/tools/sandbox/bubblewrap', () => ({ probeBubblewrap: async () => bwrap }));
      jest.doMock('../../../src/toolkit/tools/sandbox/pid-namespace', () => ({ probePidNamespace: async () => namespace }));
      ({ chooseSandbox } = require('../../../src/toolkit/tools/sandbox/choose-sandbox'));
    });
    const result: { isolation?: Isolation; error?: string } = {};
    for (let call = 0; call < 2; call++) {
      try {
        result.isolation = await chooseSandbox(setting);
      } catch (error) {
        result.error = (error as Error).message;
      }
    }
    return { ...result, warnings: warn.mock.calls.map((args) => String(args[0])) };
  } finally {
    warn.mockRestore();
  }
}

const noBwrap: Probe = { ok: false, reason: 'bwrap is not installed' };
const namespace: Probe = { ok: true, prefix: PREFIX };
const noNamespace: Probe = { ok: false, reason: 'unshare cannot create a PID namespace here: Operation not permitted' };

describe('chooseSandbox', () => {
  test('bubblewrap when it works, whatever the PID namespace does', async () => {
    expect(await choose('auto', { ok: true }, noNamespace)).toEqual({ isolation: { kind: 'bubblewrap' }, warnings: [] });
    expect(await choose('bwrap', { ok: true }, noNamespace)).toEqual({ isolation: { kind: 'bubblewrap' }, warnings: [] });
  });

  test("'auto' without bubblewrap: the PID namespace, with one warning that says what the command can still do", async () => {
    const { isolation, warnings } = await choose('auto', noBwrap, namespace);
    expect(isolation).toEqual({ kind: 'pid-namespace', prefix: PREFIX });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/bash tool is NOT sandboxed \(bwrap is not installed\); .* own PID namespace, .* network and write outside the workspace/);
  });

  test('neither: a plain child process, and the one warning says that only the shell check guards /proc', async () => {
    const { isolation, warnings } = await choose('auto', noBwrap, noNamespace);
    expect(isolation).toEqual({ kind: 'plain' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/NOT sandboxed \(bwrap is not installed\) and gets no PID namespace either \(unshare cannot create a PID namespace here: Operation not permitted\); .*only the shell check/);
  });

  test("'none' skips bubblewrap: the PID namespace without a warning, else a plain process with one", async () => {
    expect(await choose('none', { ok: true }, namespace)).toEqual({ isolation: { kind: 'pid-namespace', prefix: PREFIX }, warnings: [] });
    const plain = await choose('none', { ok: true }, noNamespace);
    expect(plain.isolation).toEqual({ kind: 'plain' });
    expect(plain.warnings).toEqual([expect.stringMatching(/sandbox 'none'\) and gets no PID namespace either/)]);
  });

  test("'bwrap' refuses to run without bubblewrap", async () => {
    const { isolation, error } = await choose('bwrap', noBwrap, namespace);
    expect(isolation).toBeUndefined();
    expect(error).toBe('The bwrap sandbox was requested but cannot be used: bwrap is not installed.');
  });
});
