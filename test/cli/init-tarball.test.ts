import { join } from 'node:path';
import { tarballInProject } from '../../src/cli/scaffold/tarball-in-project';

const manifest = (spec: string, key: 'dependencies' | 'devDependencies' = 'dependencies') =>
  `${JSON.stringify({ name: 'app', [key]: { 'durable-agent': spec, zod: '^3.25.0' } }, null, 2)}\n`;

describe("durable-agent from a tarball is put inside the project, where `docker build` (its context is the project) sees it", () => {
  const dir = join('/work', 'app');

  test('a tarball outside the project is copied in and named by its file name', () => {
    const found = tarballInProject(dir, manifest('file:../durable-agent-0.6.0.tgz'));
    expect(found.copy).toEqual({ from: join('/work', 'durable-agent-0.6.0.tgz'), to: join(dir, 'durable-agent-0.6.0.tgz') });
    expect(JSON.parse(found.text)).toEqual({ name: 'app', dependencies: { 'durable-agent': 'file:durable-agent-0.6.0.tgz', zod: '^3.25.0' } });
    expect(tarballInProject(dir, manifest('file:/srv/packages/durable-agent-0.6.0.tar.gz', 'devDependencies')).copy?.from).toBe('/srv/packages/durable-agent-0.6.0.tar.gz');
  });

  test('the registry, git, or a tarball already inside: nothing changes', () => {
    for (const spec of ['^0.6.0', 'github:acme/durable-agent', 'file:durable-agent-0.6.0.tgz', 'file:./vendor/durable-agent-0.6.0.tgz']) {
      expect(tarballInProject(dir, manifest(spec))).toEqual({ text: manifest(spec) });
    }
  });

  test('a folder outside the project cannot be copied: it is named, so init can say so', () => {
    expect(tarballInProject(dir, manifest('file:../checkout'))).toEqual({ text: manifest('file:../checkout'), folder: join('/work', 'checkout') });
  });
});
