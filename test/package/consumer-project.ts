import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mustRun } from './run-command';

const ROOT = resolve(__dirname, '..', '..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

export interface PackedPackage {
  tarball: string;
  files: string[];
  /** Bytes of the .tgz. */
  size: number;
  unpackedSize: number;
}

/** `npm pack` of this repository (prepack builds dist first) into `destination`. */
export async function packRepository(destination: string): Promise<PackedPackage> {
  const stdout = await mustRun('npm', ['pack', '--json', '--pack-destination', destination], { cwd: ROOT, timeoutMs: 300_000 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    files: Array<{ path: string }>;
  }>;
  if (!packed) throw new Error(`npm pack printed no package:\n${stdout}`);
  return {
    tarball: join(destination, packed.filename),
    files: packed.files.map((file) => file.path).sort(),
    size: packed.size,
    unpackedSize: packed.unpackedSize,
  };
}

/** The version of a package installed in this repository, so the consumer gets the same one (from npm's cache). */
function repoVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A fresh npm project in `dir` that installed the tarball the way a user does, plus TypeScript
 * and Node's types for the type checks.
 */
export async function createConsumerProject(dir: string, tarball: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'durable-agent-consumer', version: '1.0.0', private: true }, null, 2)}\n`);
  await mustRun('npm', ['install', ...NPM_FLAGS, tarball], { cwd: dir, timeoutMs: 300_000 });
  const tools = ['typescript', '@types/node'].map((name) => `${name}@${repoVersion(name)}`);
  await mustRun('npm', ['install', ...NPM_FLAGS, '--save-dev', ...tools], { cwd: dir, timeoutMs: 300_000 });
}
