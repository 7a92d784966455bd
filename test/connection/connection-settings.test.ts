import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOverrides } from '../../src/connection/connection-overrides';
import { describeConnection, resolveConnectionSettings, resolveConnectionTarget } from '../../src/connection/connection-settings';

let dir: string;
let home: string;
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'connection-settings-'));
  // A HOME of our own: the developer's ~/.config/temporalio/temporal.toml must not leak in.
  home = join(dir, 'home');
  mkdirSync(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of one case: only what it sets, with a HOME that has no Temporal config. */
const envOf = (vars: Record<string, string> = {}): NodeJS.ProcessEnv => ({ HOME: home, ...vars });

const TOML = `
[profile.default]
address = "file-host:7233"
namespace = "file-ns"

[profile.cloud]
address = "my-ns.a1b2c.tmprl.cloud:7233"
namespace = "my-ns.a1b2c"
api_key = "file-key"

[profile.mtls]
address = "mtls-host:7233"
namespace = "mtls-ns"
[profile.mtls.tls]
client_cert_path = "CERT"
client_key_path = "KEY"
`;

function configFile(): string {
  const cert = file('file-client.pem', 'file cert');
  const key = file('file-client.key', 'file key');
  return file('temporal.toml', TOML.replace('CERT', cert).replace('KEY', key));
}

interface Case {
  name: string;
  env?: () => Record<string, string>;
  overrides?: () => ConnectionOverrides;
  expected: () => { address: string; namespace: string; tls: unknown; apiKey?: string; hasApiKey?: boolean };
}

const cases: Case[] = [
  {
    name: 'nothing set: the local dev server, plaintext',
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: undefined }),
  },
  {
    name: 'env only: TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE',
    env: () => ({ TEMPORAL_ADDRESS: 'env-host:7233', TEMPORAL_NAMESPACE: 'env-ns' }),
    expected: () => ({ address: 'env-host:7233', namespace: 'env-ns', tls: undefined }),
  },
  {
    name: 'the default profile of the file named by TEMPORAL_CONFIG_FILE',
    env: () => ({ TEMPORAL_CONFIG_FILE: configFile() }),
    expected: () => ({ address: 'file-host:7233', namespace: 'file-ns', tls: undefined }),
  },
  {
    name: 'the file in the user config folder, without TEMPORAL_CONFIG_FILE',
    env: () => {
      const config = join(dir, 'xdg');
      mkdirSync(join(config, 'temporalio'), { recursive: true });
      writeFileSync(join(config, 'temporalio', 'temporal.toml'), TOML);
      return { XDG_CONFIG_HOME: config };
    },
    expected: () => ({ address: 'file-host:7233', namespace: 'file-ns', tls: undefined }),
  },
  {
    name: 'env over the file profile',
    env: () => ({ TEMPORAL_CONFIG_FILE: configFile(), TEMPORAL_ADDRESS: 'env-host:7233' }),
    expected: () => ({ address: 'env-host:7233', namespace: 'file-ns', tls: undefined }),
  },
  {
    name: 'flags over env over the file profile',
    env: () => ({ TEMPORAL_CONFIG_FILE: configFile(), TEMPORAL_ADDRESS: 'env-host:7233', TEMPORAL_NAMESPACE: 'env-ns' }),
    overrides: () => ({ address: 'flag-host:7233' }),
    expected: () => ({ address: 'flag-host:7233', namespace: 'env-ns', tls: undefined }),
  },
  {
    name: 'a profile chosen by TEMPORAL_PROFILE; its API key turns TLS on',
    env: () => ({ TEMPORAL_CONFIG_FILE: configFile(), TEMPORAL_PROFILE: 'cloud' }),
    expected: () => ({ address: 'my-ns.a1b2c.tmprl.cloud:7233', namespace: 'my-ns.a1b2c', tls: true, apiKey: 'file-key' }),
  },
  {
    name: 'a profile chosen by --profile (over TEMPORAL_PROFILE) with mTLS files',
    env: () => ({ TEMPORAL_CONFIG_FILE: configFile(), TEMPORAL_PROFILE: 'cloud' }),
    overrides: () => ({ profile: 'mtls' }),
    expected: () => ({
      address: 'mtls-host:7233',
      namespace: 'mtls-ns',
      tls: expect.objectContaining({ clientCertPair: { crt: bytes('file cert'), key: bytes('file key') } }),
    }),
  },
  {
    name: '--config-file over TEMPORAL_CONFIG_FILE',
    env: () => ({ TEMPORAL_CONFIG_FILE: file('other.toml', '[profile.default]\naddress = "other:1"\n') }),
    overrides: () => ({ configFile: configFile() }),
    expected: () => ({ address: 'file-host:7233', namespace: 'file-ns', tls: undefined }),
  },
  {
    name: 'TEMPORAL_API_KEY turns TLS on (Temporal\'s rule)',
    env: () => ({ TEMPORAL_ADDRESS: 'my-ns.a1b2c.tmprl.cloud:7233', TEMPORAL_API_KEY: 'env-key' }),
    expected: () => ({ address: 'my-ns.a1b2c.tmprl.cloud:7233', namespace: 'default', tls: true, apiKey: 'env-key' }),
  },
  {
    name: 'an API key with TEMPORAL_TLS=false stays plaintext',
    env: () => ({ TEMPORAL_API_KEY: 'env-key', TEMPORAL_TLS: 'false' }),
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: false, apiKey: 'env-key' }),
  },
  {
    name: '--api-key over TEMPORAL_API_KEY',
    env: () => ({ TEMPORAL_API_KEY: 'env-key' }),
    overrides: () => ({ apiKey: 'flag-key' }),
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: true, apiKey: 'flag-key' }),
  },
  {
    name: 'an empty TEMPORAL_API_KEY (compose passes them) is unset: no TLS',
    env: () => ({ TEMPORAL_API_KEY: '', TEMPORAL_ADDRESS: '' }),
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: undefined, hasApiKey: false }),
  },
  {
    name: 'TEMPORAL_TLS=true: TLS with the system CAs',
    env: () => ({ TEMPORAL_TLS: 'true' }),
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: expect.objectContaining({ serverRootCACertificate: undefined }) }),
  },
  {
    name: 'TLS files and server name from env',
    env: () => ({
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('env-ca.pem', 'env ca'),
      TEMPORAL_TLS_CLIENT_CERT_PATH: file('env-client.pem', 'env cert'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: file('env-client.key', 'env key'),
      TEMPORAL_TLS_SERVER_NAME: 'env-name',
    }),
    expected: () => ({
      address: '127.0.0.1:7233',
      namespace: 'default',
      tls: { serverNameOverride: 'env-name', serverRootCACertificate: bytes('env ca'), clientCertPair: { crt: bytes('env cert'), key: bytes('env key') } },
    }),
  },
  {
    name: '--tls-ca and --tls-server-name over env; the env client pair stays',
    env: () => ({
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('env-ca.pem', 'env ca'),
      TEMPORAL_TLS_CLIENT_CERT_PATH: file('env-client.pem', 'env cert'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: file('env-client.key', 'env key'),
      TEMPORAL_TLS_SERVER_NAME: 'env-name',
    }),
    overrides: () => ({ tlsCaPath: file('flag-ca.pem', 'flag ca'), tlsServerName: 'flag-name' }),
    expected: () => ({
      address: '127.0.0.1:7233',
      namespace: 'default',
      tls: { serverNameOverride: 'flag-name', serverRootCACertificate: bytes('flag ca'), clientCertPair: { crt: bytes('env cert'), key: bytes('env key') } },
    }),
  },
  {
    name: 'a TLS flag turns TLS on even where TEMPORAL_TLS=false',
    env: () => ({ TEMPORAL_TLS: 'false' }),
    overrides: () => ({ tlsCaPath: file('flag-ca.pem', 'flag ca') }),
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: expect.objectContaining({ serverRootCACertificate: bytes('flag ca') }) }),
  },
  {
    name: 'tls: false in code wins over an API key',
    env: () => ({ TEMPORAL_API_KEY: 'env-key' }),
    overrides: () => ({ tls: false }),
    expected: () => ({ address: '127.0.0.1:7233', namespace: 'default', tls: false, apiKey: 'env-key' }),
  },
];

describe('resolveConnectionSettings: overrides (flags) > TEMPORAL_* env > config profile > defaults', () => {
  test.each(cases)('$name', ({ env, overrides, expected }) => {
    const settings = resolveConnectionSettings(overrides?.() ?? {}, envOf(env?.()));
    const want = expected();
    expect(settings.address).toBe(want.address);
    expect(settings.namespace).toBe(want.namespace);
    expect(settings.connectionOptions.address).toBe(want.address);
    expect(settings.connectionOptions.tls).toEqual(want.tls);
    expect(settings.tls).toBe(Boolean(want.tls));
    expect(settings.connectionOptions.apiKey).toBe(want.apiKey);
    expect(settings.hasApiKey).toBe(want.hasApiKey ?? want.apiKey !== undefined);
    expect(settings.connectTimeoutMs).toBe(5000);
    // What may be logged never holds the key.
    if (want.apiKey) expect(describeConnection(settings)).not.toContain(want.apiKey);
  });

  test('describeConnection: address, TLS, API key (never the key itself), namespace', () => {
    const settings = resolveConnectionSettings({}, envOf({ TEMPORAL_ADDRESS: 'h:1', TEMPORAL_API_KEY: 'secret-key-42' }));
    expect(describeConnection(settings)).toBe('h:1 (TLS, API key), namespace default');
  });
});

describe('clear errors', () => {
  test('a missing certificate file names the path and the settings that name it', () => {
    const missing = join(dir, 'nope', 'client.pem');
    expect(() => resolveConnectionSettings({ tlsCertPath: missing, tlsKeyPath: file('k.key', 'k') }, envOf())).toThrow(
      `Cannot read the TLS client certificate ${missing} (set by --tls-cert, TEMPORAL_TLS_CLIENT_CERT_PATH or tls.client_cert_path): no such file.`,
    );
    const missingCa = join(dir, 'nope', 'ca.pem');
    expect(() => resolveConnectionSettings({}, envOf({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: missingCa }))).toThrow(
      `Cannot read the TLS server CA certificate ${missingCa} (set by --tls-ca, TEMPORAL_TLS_SERVER_CA_CERT_PATH or tls.server_ca_cert_path): no such file.`,
    );
  });

  test('a missing certificate file is no error when TLS is off, and never read without connecting', () => {
    const missingCa = join(dir, 'nope', 'ca.pem');
    expect(resolveConnectionSettings({}, envOf({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: missingCa, TEMPORAL_TLS: 'false' })).tls).toBe(false);
    expect(resolveConnectionTarget({}, envOf({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: missingCa, TEMPORAL_ADDRESS: 'h:1' }))).toEqual({ address: 'h:1', namespace: 'default' });
  });

  test('half a client certificate is refused (Temporal\'s loader would drop it silently)', () => {
    expect(() => resolveConnectionSettings({ tlsCertPath: file('c.pem', 'c') }, envOf())).toThrow(/client certificate is set without its key: set --tls-key/);
    expect(() => resolveConnectionSettings({}, envOf({ TEMPORAL_TLS_CLIENT_KEY_PATH: file('k.key', 'k') }))).toThrow(/client key is set without its certificate/);
  });

  test('a named config file that does not exist, and an unknown profile', () => {
    const missing = join(dir, 'missing.toml');
    expect(() => resolveConnectionTarget({ configFile: missing }, envOf())).toThrow(`The Temporal config file ${missing} (--config-file, TEMPORAL_CONFIG_FILE) does not exist.`);
    expect(() => resolveConnectionTarget({}, envOf({ TEMPORAL_CONFIG_FILE: missing }))).toThrow(/does not exist/);
    const config = configFile();
    expect(() => resolveConnectionTarget({ profile: 'staging' }, envOf({ TEMPORAL_CONFIG_FILE: config }))).toThrow(
      `The profile 'staging' (--profile, TEMPORAL_PROFILE) is not in ${config}.`,
    );
  });

  test('a malformed config file names the file', () => {
    const broken = file('broken.toml', '[profile.default\naddress = 1');
    expect(() => resolveConnectionTarget({}, envOf({ TEMPORAL_CONFIG_FILE: broken }))).toThrow(`Cannot read ${broken}:`);
  });
});
