import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedDependency } from '../../src/cli/scaffold/installed-dependency';
import { mergePackageJson } from '../../src/cli/scaffold/merge-package-json';

describe('init writes durable-agent into the new project as the running copy was installed', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'init-dependency-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const installedIn = (spec: string | undefined) => {
    const project = join(dir, 'project');
    const copy = join(project, 'node_modules', 'durable-agent');
    mkdirSync(copy, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', ...(spec ? { dependencies: { 'durable-agent': spec } } : {}) }));
    return copy;
  };

  test.each([
    ['from the registry', '^0.6.0', '^0.6.0'],
    ['from a tarball', 'file:../durable-agent-0.6.0.tgz', 'file:../durable-agent-0.6.0.tgz'],
    ['from a folder', 'file:../checkout', 'file:../checkout'],
    ['from git', 'github:acme/durable-agent', 'github:acme/durable-agent'],
    ['by npx, with no package.json beside it', undefined, '^0.6.0'],
  ])('%s', (_how, spec, expected) => {
    // The new project is a sibling of the installing one, so relative file specs carry over as they are.
    expect(installedDependency(join(dir, 'new-app'), '0.6.0', installedIn(spec))).toBe(expected);
  });

  test('a tarball spec is made relative to where the new project is', () => {
    expect(installedDependency(join(dir, 'deeper', 'app'), '0.6.0', installedIn('file:../durable-agent-0.6.0.tgz'))).toBe('file:../../durable-agent-0.6.0.tgz');
    expect(installedDependency(join(dir, 'project'), '0.6.0', installedIn('file:durable-agent-0.6.0.tgz'))).toBe('file:./durable-agent-0.6.0.tgz');
  });

  test('a copy outside node_modules (a checkout) is named by its folder', () => {
    expect(installedDependency(join(dir, 'app'), '0.6.0', join(dir, 'checkout'))).toBe('file:../checkout');
  });

  test("a package.json already there keeps its name, its durable-agent and its scripts, and gains the scaffold's", () => {
    const merged = JSON.parse(
      mergePackageJson(
        JSON.stringify({ name: 'mine', dependencies: { 'durable-agent': 'file:../d.tgz' }, scripts: { test: 'echo own' } }),
        JSON.stringify({ name: 'scaffold', private: true, dependencies: { 'durable-agent': '^0.6.0', zod: '^3.25.0' }, scripts: { test: 'node --test', worker: 'durable-agent worker' } }),
      ),
    );
    expect(merged).toEqual({ name: 'mine', private: true, dependencies: { 'durable-agent': 'file:../d.tgz', zod: '^3.25.0' }, scripts: { test: 'echo own', worker: 'durable-agent worker' }, devDependencies: {} });
  });
});
