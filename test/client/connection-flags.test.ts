import { parseArgs } from 'node:util';
import { CONNECTION_FLAGS, connectionOverridesFromFlags } from '../../src/cli/connection-flags';

const parse = (args: string[]) => parseArgs({ args, options: CONNECTION_FLAGS, strict: true, allowPositionals: true }).values;

describe('connection flags', () => {
  test('every flag becomes its override; flags not given override nothing', () => {
    const values = parse([
      '--address', 'my-ns.a1b2c.tmprl.cloud:7233',
      '--namespace', 'my-ns.a1b2c',
      '--api-key', 'k',
      '--tls',
      '--tls-cert', 'c.pem',
      '--tls-key', 'c.key',
      '--tls-ca', 'ca.pem',
      '--tls-server-name', 'server',
      '--profile', 'cloud',
      '--config-file', 't.toml',
    ]);
    expect(connectionOverridesFromFlags(values)).toEqual({
      address: 'my-ns.a1b2c.tmprl.cloud:7233',
      namespace: 'my-ns.a1b2c',
      apiKey: 'k',
      tls: true,
      tlsCertPath: 'c.pem',
      tlsKeyPath: 'c.key',
      tlsCaPath: 'ca.pem',
      tlsServerName: 'server',
      profile: 'cloud',
      configFile: 't.toml',
    });
    expect(connectionOverridesFromFlags(parse([]))).toEqual({});
  });

  test('--tls takes no value', () => {
    expect(() => parse(['--tls=yes'])).toThrow();
  });
});
