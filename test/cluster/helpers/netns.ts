import { execFileSync, spawnSync } from 'node:child_process';

/**
 * A network namespace of the test's own, joined to the host by a veth pair: the host side
 * 10.231.<n>.1/30, the namespace side 10.231.<n>.2/30. A process started in it reaches the host
 * only through the veth, so taking the host side down cuts it off, as a partitioned machine is.
 */
export interface NetNamespace {
  name: string;
  hostVeth: string;
  hostAddress: string;
  nsAddress: string;
  /** Takes the host side of the veth down: nothing passes either way until `restore`. */
  cut(): void;
  restore(): void;
  /** Deletes the namespace and the veth pair; safe to call more than once. */
  remove(): void;
}

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function tryIp(args: string[]): boolean {
  return spawnSync('ip', args, { stdio: 'ignore' }).status === 0;
}

/**
 * Why network namespaces cannot be used here (not root, no `ip`, a namespace cannot be created),
 * or undefined when they can: the check creates a namespace and deletes it again.
 */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces are Linux's (this is ${process.platform})`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'creating a network namespace needs root';
  const version = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return 'no `ip` command (iproute2)';
  const probe = `da-probe-${process.pid}`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.status !== 0) return `\`ip netns add\` failed: ${(added.stderr || '').trim() || `exit ${added.status}`}`;
  tryIp(['netns', 'del', probe]);
  return undefined;
}

/** A /30 of 10.231.0.0/16 that no interface of the host has yet. */
function freeSubnet(): number {
  const used = ip(['-o', '-4', 'addr', 'show']);
  const start = process.pid % 250;
  for (let i = 0; i < 250; i++) {
    const n = ((start + i) % 250) + 1;
    if (!used.includes(`10.231.${n}.`)) return n;
  }
  throw new Error('no free subnet in 10.231.0.0/16');
}

const created = new Set<NetNamespace>();
let exitHookInstalled = false;

/** Creates the namespace and its veth pair, `lo` and both ends up. */
export function createNetNamespace(): NetNamespace {
  const tag = `${process.pid.toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const name = `da-part-${tag}`;
  const hostVeth = `dah${tag}`.slice(0, 15);
  const nsVeth = `dan${tag}`.slice(0, 15);
  const n = freeSubnet();
  const hostAddress = `10.231.${n}.1`;
  const nsAddress = `10.231.${n}.2`;
  let removed = false;
  const ns: NetNamespace = {
    name,
    hostVeth,
    hostAddress,
    nsAddress,
    cut: () => void ip(['link', 'set', hostVeth, 'down']),
    restore: () => void ip(['link', 'set', hostVeth, 'up']),
    remove() {
      if (removed) return;
      removed = true;
      // Deleting the namespace destroys its end of the pair, and with it the host's end.
      tryIp(['netns', 'del', name]);
      if (tryIp(['link', 'show', hostVeth])) tryIp(['link', 'del', hostVeth]);
      created.delete(ns);
    },
  };
  created.add(ns);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Whatever happens to the test process, its namespaces go with it.
    process.once('exit', () => {
      for (const left of [...created]) left.remove();
    });
  }
  try {
    ip(['netns', 'add', name]);
    ip(['link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', nsVeth]);
    ip(['link', 'set', nsVeth, 'netns', name]);
    ip(['addr', 'add', `${hostAddress}/30`, 'dev', hostVeth]);
    ip(['link', 'set', hostVeth, 'up']);
    ip(['-n', name, 'addr', 'add', `${nsAddress}/30`, 'dev', nsVeth]);
    ip(['-n', name, 'link', 'set', nsVeth, 'up']);
    ip(['-n', name, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    ns.remove();
    throw error;
  }
  return ns;
}

/** Whether a namespace of that name still exists (for the test's own check of its cleanup). */
export function netnsExists(name: string): boolean {
  return ip(['netns', 'list']).split('\n').some((line) => line.split(' ')[0] === name);
}
