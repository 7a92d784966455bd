import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localTemporal, type LocalTemporalOptions } from '../../src/cli/dev/local-temporal';

/** What `npm start` and `durable-agent dev` say when they join a server instead of starting one. */
describe('joining a Temporal server that is already there: it says so, and where', () => {
  let dir: string;
  let saved: NodeJS.ProcessEnv;
  let lines: string[];
  const options = (port: number): LocalTemporalOptions => ({ port, uiPort: port + 1000, dbFile: join(dir, 'dev.sqlite'), toolsRoot: dir, log: (line) => lines.push(line) });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'local-temporal-'));
    saved = { ...process.env };
    for (const name of Object.keys(process.env)) if (name.startsWith('TEMPORAL_')) delete process.env[name];
    // A config file with an empty profile: the machine's own profile stays out of it.
    writeFileSync(join(dir, 'temporal.toml'), '[profile.default]\n');
    process.env.TEMPORAL_CONFIG_FILE = join(dir, 'temporal.toml');
    lines = [];
  });
  afterEach(() => {
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  test('one listening on 127.0.0.1:PORT', async () => {
    const server: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const found = await localTemporal(options(port));
      expect(found?.address).toBe(`127.0.0.1:${port}`);
      expect(found?.pid).toBeUndefined();
      expect(lines).toEqual([`Joining the Temporal server already running on 127.0.0.1:${port}: none is started.`]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('the one TEMPORAL_ADDRESS names', async () => {
    process.env.TEMPORAL_ADDRESS = 'temporal.internal:7233';
    expect(await localTemporal(options(1))).toMatchObject({ address: 'temporal.internal:7233' });
    expect(lines).toEqual(['Joining the Temporal server at temporal.internal:7233 (TEMPORAL_ADDRESS): none is started.']);
  });

  test("the one the config file's profile names", async () => {
    writeFileSync(join(dir, 'temporal.toml'), '[profile.default]\naddress = "10.1.2.3:7233"\n');
    expect(await localTemporal(options(1))).toMatchObject({ address: '10.1.2.3:7233' });
    expect(lines).toEqual(["Joining the Temporal server at 10.1.2.3:7233 (the Temporal config file's profile): none is started."]);
  });
});
