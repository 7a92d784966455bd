import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM files of one throwaway certificate authority and what it signed. */
export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  dispose(): void;
}

/** True when `openssl` can be run (the TLS tests need it to make their certificates). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function signedBy(dir: string, name: string, subject: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', `${name}.pem`, '-days', '2', '-sha256', '-extfile', `${name}.ext`]);
}

/**
 * A self-signed CA, a server certificate for localhost and 127.0.0.1, and a client certificate,
 * in a new temporary folder. Strict verifiers (rustls in the worker's connection) want real
 * extensions: a CA flag on the CA only, subject alternative names, and key usages.
 */
export function createTestPki(caName = 'durable-agent test CA'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-pki-'));
  openssl(dir, ['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-sha256', '-subj', `/CN=${caName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  const leaf = 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n';
  signedBy(dir, 'server', '/CN=localhost', `${leaf}extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n`);
  signedBy(dir, 'client', '/CN=durable-agent test client', `${leaf}extendedKeyUsage=clientAuth\n`);
  return {
    dir,
    caCert: join(dir, 'ca.pem'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
