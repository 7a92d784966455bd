/** Whether a host name or address is this machine's own: `localhost`, 127.0.0.0/8, `::1` (bracketed or not). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether a Host header names a loopback address (with or without a port). A server on loopback
 * checks it against DNS rebinding: a page of another name that resolves here is refused.
 */
export function loopbackHostHeader(header: string | undefined): boolean {
  if (!header) return false;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.replace(/:\d+$/, '');
  return isLoopbackHost(name);
}
