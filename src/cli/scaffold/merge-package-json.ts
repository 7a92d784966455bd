type Manifest = Record<string, unknown> & { scripts?: Record<string, string>; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

/**
 * The scaffold's package.json joined to one that exists (say, where `npm install durable-agent`
 * just ran): what the project has stays (its name, its durable-agent as installed, its scripts), and
 * the scaffold's scripts and dependencies that it lacks are added.
 */
export function mergePackageJson(existing: string, scaffold: string): string {
  const have = JSON.parse(existing) as Manifest;
  const add = JSON.parse(scaffold) as Manifest;
  const merged: Manifest = { ...add, ...have };
  for (const key of ['scripts', 'dependencies', 'devDependencies'] as const) {
    merged[key] = { ...(add[key] ?? {}), ...(have[key] ?? {}) };
  }
  return `${JSON.stringify(merged, null, 2)}\n`;
}
