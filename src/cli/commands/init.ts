import { stringOption, UsageError, type CliCommand } from '../command';

const DETAILS = [
  'Writes a new project into DIR (the current folder by default): package.json (durable-agent as this copy',
  'was installed: from the registry, or the same tarball or folder; a package.json there already is joined),',
  'agents.ts (an agent with a read-only tool and a tool that asks for approval, on a task queue named after the project),',
  'client.ts (a run followed to its answer), model-script.ts (what the scripted model of durable-agent/testing',
  'answers for them), test/agents.test.ts (the agents against the scripted model, on a Temporal dev server of the',
  'test\'s own), tsconfig.json, Dockerfile and docker-compose.yml (a worker image that installs the package as',
  'package.json names it, a dev server beside it), .env.example, .gitignore, .dockerignore and README.md. A',
  'package installed from a tarball outside DIR is copied into DIR and named there, so `docker build` (whose',
  'context is DIR) can install it. Then: cd DIR, npm install, npm run dev (a dev server, the worker and',
  'client.ts, on the scripted model without OPENAI_API_KEY), npm test.',
  'It writes nothing when one of those files (but package.json) exists already, unless --force.',
].join('\n');

export const initCommand: CliCommand = {
  name: 'init',
  usage: 'init [DIR] [--name NAME] [--force]',
  summary: 'Start a new project: an agents module, a client, a test against the scripted model, a Dockerfile and compose file, .env.example.',
  details: DETAILS,
  options: {
    name: { type: 'string', valueName: 'NAME', description: 'the package name', defaultText: 'the folder name' },
    force: { type: 'boolean', description: 'write over files that exist' },
  },
  examples: ['init my-agents', 'init . --name support-agents'],
  async run(ctx) {
    const { existingFiles, packageNameOf, projectFiles, taskQueueOf, writeProject } = require('../scaffold/project-template') as typeof import('../scaffold/project-template');
    const { installedDependency } = require('../scaffold/installed-dependency') as typeof import('../scaffold/installed-dependency');
    const { mergePackageJson } = require('../scaffold/merge-package-json') as typeof import('../scaffold/merge-package-json');
    const { tarballInProject } = require('../scaffold/tarball-in-project') as typeof import('../scaffold/tarball-in-project');
    const { PACKAGE_VERSION } = require('../../common/package-version') as typeof import('../../common/package-version');
    const { copyFileSync, existsSync, readFileSync } = require('node:fs') as typeof import('node:fs');
    const { basename, join } = require('node:path') as typeof import('node:path');
    const dir = ctx.positionals[0] ?? '.';
    if (ctx.positionals.length > 1) throw new UsageError('init takes one folder');
    const name = stringOption(ctx, 'name') ?? packageNameOf(dir);
    if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name)) throw new UsageError(`'${name}' is not an npm package name (lower case, no spaces)`);
    const manifestPath = join(dir, 'package.json');
    const manifest = existsSync(manifestPath) ? readFileSync(manifestPath, 'utf8') : undefined;
    let tarball: ReturnType<typeof tarballInProject> | undefined;
    const files = projectFiles({ name, dependency: installedDependency(dir, PACKAGE_VERSION) }).map((file) => {
      if (file.path !== 'package.json') return file;
      // A package.json that is there (say, `npm install durable-agent` just made it) is joined, not refused.
      tarball = tarballInProject(dir, manifest !== undefined ? mergePackageJson(manifest, file.text) : file.text);
      return { ...file, text: tarball.text };
    });
    const existing = existingFiles(dir, files).filter((path) => path !== 'package.json');
    if (existing.length > 0 && ctx.values.force !== true) {
      throw new UsageError(`${dir} has ${existing.join(', ')} already: nothing was written (--force writes over them)`);
    }
    writeProject(dir, files);
    const copy = tarball?.copy;
    if (copy && (ctx.values.force === true || !existsSync(copy.to))) copyFileSync(copy.from, copy.to);
    const written = [...files.map((file) => file.path), ...(copy ? [basename(copy.to)] : [])];
    if (ctx.json) {
      ctx.output.out(JSON.stringify({ dir, name, files: written }));
      return 0;
    }
    ctx.output.out(`Created ${name} in ${dir} (task queue ${taskQueueOf(name)}): ${written.join(', ')}`);
    if (copy) ctx.output.out(`${basename(copy.to)} is the package as it was installed, copied in so \`docker build\` can install it.`);
    if (tarball?.folder) ctx.output.out(`durable-agent comes from the folder ${tarball.folder}, outside the project: \`docker build\` cannot install it (use a tarball made by \`npm pack\` there, or the registry).`);
    ctx.output.out('Next:');
    if (dir !== '.') ctx.output.out(`  cd ${dir}`);
    ctx.output.out('  npm install');
    ctx.output.out('  npm run dev    # a Temporal dev server, the worker and client.ts; the scripted model without OPENAI_API_KEY');
    ctx.output.out('  npm test       # the agents against the scripted model, on a dev server of its own');
    return 0;
  },
};
