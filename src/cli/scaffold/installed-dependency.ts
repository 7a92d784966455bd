import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** This package's root: three folders above this file, in the sources (src/cli/scaffold) and in dist (dist/cli/scaffold). */
const PACKAGE_ROOT = resolve(__dirname, '..', '..', '..');

function fileSpec(from: string, path: string): string {
  const rel = relative(from, path) || '.';
  return `file:${rel.startsWith('.') || isAbsolute(rel) ? rel : `./${rel}`}`;
}

/**
 * How a new project in `target` depends on durable-agent: the way the running copy was installed.
 * A copy from the registry gives `^VERSION`; one installed from a tarball or a folder (`file:`, as
 * npm wrote it in the installing project's package.json) gives that file again, relative to the new
 * project; a copy outside any node_modules (a checkout of the repository) gives its folder.
 */
export function installedDependency(target: string, version: string, packageRoot = PACKAGE_ROOT): string {
  const parts = packageRoot.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return fileSpec(resolve(target), packageRoot);
  const project = parts.slice(0, at).join(sep) || sep;
  const manifest = join(project, 'package.json');
  if (!existsSync(manifest)) return `^${version}`;
  const declared = (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> });
  const spec = declared.dependencies?.['durable-agent'] ?? declared.devDependencies?.['durable-agent'];
  if (spec?.startsWith('file:')) return fileSpec(resolve(target), resolve(project, spec.slice('file:'.length)));
  if (spec && /^(https?:|git(\+\w+)?:|github:)/.test(spec)) return spec;
  return `^${version}`;
}
