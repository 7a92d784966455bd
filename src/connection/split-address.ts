const TEMPORAL_PORT = 7233;

/** Host and port of a Temporal address: `host:port`, `[ipv6]:port`, or a bare host (port 7233, as Temporal assumes). */
export function splitAddress(address: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(address);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : TEMPORAL_PORT };
  const colon = address.lastIndexOf(':');
  if (colon > 0 && address.indexOf(':') === colon) return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)) };
  return { host: address, port: TEMPORAL_PORT };
}
