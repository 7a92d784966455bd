import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** The project `durable-agent init` writes: the files under templates/project of this package. */
export const TEMPLATE_DIR = resolve(__dirname, '..', '..', '..', 'templates', 'project');

/** npm leaves dotfiles such as .gitignore out of a package: the template names them without the dot. */
const DOTTED: Record<string, string> = { gitignore: '.gitignore', dockerignore: '.dockerignore', 'env.example': '.env.example' };

export interface TemplateFile {
  /** Where it goes, relative to the new project. */
  path: string;
  text: string;
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? templateFiles(path) : [path];
  });
}

/** An npm package name from a folder name: lower case, letters, digits and dashes. */
export function packageNameOf(folder: string): string {
  const name = basename(resolve(folder)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-._]+|[-._]+$/g, '');
  return name || 'my-agents';
}

/** The project's task queue: its package name, as a queue name (a scope's `@` left out). */
export function taskQueueOf(name: string): string {
  return name.replace(/^@/, '');
}

/** The project's files with its name, task queue and this package's dependency filled in. */
export function projectFiles(values: { name: string; dependency: string }): TemplateFile[] {
  return templateFiles(TEMPLATE_DIR).map((file) => {
    const path = relative(TEMPLATE_DIR, file);
    const target = join(dirname(path), DOTTED[basename(path)] ?? basename(path));
    const text = readFileSync(file, 'utf8').replace(/\{\{name\}\}/g, values.name).replace(/\{\{taskQueue\}\}/g, taskQueueOf(values.name)).replace(/\{\{dependency\}\}/g, values.dependency);
    return { path: target, text };
  });
}

/** The files of `files` that exist in `dir` already. */
export function existingFiles(dir: string, files: readonly TemplateFile[]): string[] {
  return files.filter((file) => existsSync(join(dir, file.path))).map((file) => file.path);
}

export function writeProject(dir: string, files: readonly TemplateFile[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.text);
  }
}
