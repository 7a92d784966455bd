import { classifyConnectError } from '../../src/connection/classify-connect-error';

const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });
// As the worker's connection (Rust core) reported them against the dev server and a TLS proxy.
const native = (message: string) => Object.assign(new Error(message), { name: 'TransportError' });

describe('classifyConnectError', () => {
  test.each([
    ['node: refused', nodeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'), 'refused', 'connect ECONNREFUSED 127.0.0.1:1'],
    ['node: unknown host', nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND nope.invalid'), 'host-not-found', 'getaddrinfo ENOTFOUND nope.invalid'],
    ['node: untrusted certificate', nodeError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'), 'untrusted-certificate', 'unable to verify the first certificate'],
    ['node: wrong name', nodeError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"), 'certificate-name-mismatch', "Hostname/IP does not match certificate's altnames"],
    ['node: plaintext server', nodeError('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'), 'not-tls', 'wrong version number'],
    ['node: client certificate wanted', nodeError('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'tlsv13 alert certificate required'), 'client-certificate-refused', 'tlsv13 alert certificate required'],
    [
      'core: refused',
      native('tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:1, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))'),
      'refused',
      'Connection refused',
    ],
    [
      'core: unknown host',
      native('tonic::transport::Error(Transport, ConnectError(ConnectError("dns error", Custom { kind: Uncategorized, error: "failed to lookup address information: Name or service not known" })))'),
      'host-not-found',
      'dns error',
    ],
    [
      'core: untrusted certificate',
      native('tonic::transport::Error(Transport, ConnectError(Custom { kind: InvalidData, error: InvalidCertificate(UnknownIssuer) }))'),
      'untrusted-certificate',
      'certificate error UnknownIssuer',
    ],
    [
      'core: wrong name',
      native('tonic::transport::Error(Transport, ConnectError(Custom { kind: InvalidData, error: InvalidCertificate(NotValidForNameContext { expected: DnsName("example.com"), presented: [] }) }))'),
      'certificate-name-mismatch',
      'certificate error NotValidForNameContext',
    ],
    [
      'core: client certificate wanted',
      native("Failed to call GetSystemInfo: code: 'Unknown error', message: \"transport error\", source: tonic::transport::Error(Transport, hyper::Error(Io, Custom { kind: InvalidData, error: \"received fatal alert: CertificateRequired\" }))"),
      'client-certificate-refused',
      'TLS alert CertificateRequired',
    ],
    [
      'core: plaintext server',
      native('tonic::transport::Error(Transport, ConnectError(Custom { kind: InvalidData, error: InvalidMessage(InvalidContentType) }))'),
      'not-tls',
      'invalid TLS message InvalidContentType',
    ],
  ])('%s', (_name, error, kind, detail) => {
    const found = classifyConnectError(error);
    expect(found?.kind).toBe(kind);
    expect(found?.detail).toContain(detail);
  });

  test('what cannot be told is left to the probe', () => {
    expect(classifyConnectError(new Error('Failed to connect before the deadline'))).toBeUndefined();
    expect(classifyConnectError('not an error')).toBeUndefined();
  });
});
