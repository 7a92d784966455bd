export type ConnectFailureKind =
  | 'refused'
  | 'host-not-found'
  | 'unreachable'
  | 'timeout'
  | 'untrusted-certificate'
  | 'certificate-name-mismatch'
  | 'client-certificate-refused'
  | 'not-tls'
  | 'closed'
  | 'other';

export interface ConnectFailure {
  kind: ConnectFailureKind;
  /** The underlying reason, as short as it gets (never a credential). */
  detail: string;
}

const NODE_CODES: Record<string, ConnectFailureKind> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'host-not-found',
  EAI_AGAIN: 'host-not-found',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'timeout',
  ECONNRESET: 'closed',
  EPIPE: 'closed',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted-certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted-certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted-certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted-certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted-certificate',
  CERT_UNTRUSTED: 'untrusted-certificate',
  CERT_SIGNATURE_FAILURE: 'untrusted-certificate',
  CERT_HAS_EXPIRED: 'untrusted-certificate',
  CERT_NOT_YET_VALID: 'untrusted-certificate',
  CERT_REVOKED: 'untrusted-certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate-name-mismatch',
  ERR_SSL_WRONG_VERSION_NUMBER: 'not-tls',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'not-tls',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'client-certificate-refused',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'client-certificate-refused',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'client-certificate-refused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'client-certificate-refused',
};

// The worker's connection (Rust: tonic, rustls) reports errors as debug text, e.g.
// `ConnectError(..., Os { code: 111, kind: ConnectionRefused, ... })` or `InvalidCertificate(UnknownIssuer)`.
const NATIVE_PATTERNS: [RegExp, ConnectFailureKind][] = [
  [/kind: ConnectionRefused/, 'refused'],
  [/"dns error"/, 'host-not-found'],
  [/kind: (HostUnreachable|NetworkUnreachable)/, 'unreachable'],
  [/kind: TimedOut/, 'timeout'],
  [/InvalidCertificate\(NotValidForName/, 'certificate-name-mismatch'],
  [/InvalidCertificate\(/, 'untrusted-certificate'],
  [/alert: (CertificateRequired|BadCertificate|UnknownCA|CertificateUnknown)/, 'client-certificate-refused'],
  [/InvalidContentType|CorruptMessage/, 'not-tls'],
  [/kind: (ConnectionReset|BrokenPipe|UnexpectedEof)/, 'closed'],
];

function nativeDetail(message: string): string {
  const certificate = /InvalidCertificate\((\w+)/.exec(message);
  if (certificate) return `certificate error ${certificate[1]}`;
  const alert = /alert: (\w+)/.exec(message);
  if (alert) return `TLS alert ${alert[1]}`;
  const os = /message: "([^"]+)"/.exec(message);
  if (os) return os[1];
  const kind = /InvalidMessage\((\w+)\)/.exec(message);
  return kind ? `invalid TLS message ${kind[1]}` : message;
}

/** What a failed connection attempt means, when it can be told; undefined otherwise. */
export function classifyConnectError(error: unknown): ConnectFailure | undefined {
  // Duck-typed: errors from another realm (node's own, seen from a jest sandbox) fail `instanceof Error`.
  const { code, message, reason } = (error ?? {}) as { code?: unknown; message?: unknown; reason?: unknown };
  if (typeof message !== 'string') return undefined;
  // OpenSSL's errors carry a short `reason` ("tlsv13 alert certificate required") beside a long message.
  if (typeof code === 'string' && NODE_CODES[code]) return { kind: NODE_CODES[code], detail: typeof reason === 'string' ? reason : message };
  for (const [pattern, kind] of NATIVE_PATTERNS) {
    if (pattern.test(message)) return { kind, detail: nativeDetail(message) };
  }
  return undefined;
}
