import { basename, isAbsolute, join, relative, resolve } from 'node:path';

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

export interface TarballCopy {
  from: string;
  /** Where it goes: the project's own folder, by its file name. */
  to: string;
}

const outside = (dir: string, path: string): boolean => {
  const rel = relative(resolve(dir), path);
  return rel.startsWith('..') || isAbsolute(rel);
};

/**
 * The project's package.json with durable-agent from inside the project: `docker build` sees only
 * the project, so a `file:` tarball outside it (how a package installed from a tarball names itself)
 * is copied in and named by its file name. A folder outside it cannot be: `folder` names it then.
 */
export function tarballInProject(dir: string, packageJson: string): { text: string; copy?: TarballCopy; folder?: string } {
  const manifest = JSON.parse(packageJson) as Manifest;
  const deps = manifest.dependencies?.['durable-agent'] !== undefined ? manifest.dependencies : manifest.devDependencies;
  const spec = deps?.['durable-agent'];
  if (!deps || !spec?.startsWith('file:')) return { text: packageJson };
  const from = resolve(dir, spec.slice('file:'.length));
  if (!outside(dir, from)) return { text: packageJson };
  if (!/\.(tgz|tar\.gz)$/.test(from)) return { text: packageJson, folder: from };
  deps['durable-agent'] = `file:${basename(from)}`;
  return { text: `${JSON.stringify(manifest, null, 2)}\n`, copy: { from, to: join(resolve(dir), basename(from)) } };
}
