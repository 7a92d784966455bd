import { roomOf, type SourceImport } from './import-graph';

/**
 * The rooms of src/ and what each may import at run time (type-only imports aside), lowest
 * first. The application floor (cli, demo) may import anything; nothing else imports it.
 */
export const ALLOWED_ROOMS: Record<string, readonly string[]> = {
  common: [],
  http: [],
  permissions: ['common'],
  model: ['common'],
  connection: ['common'],
  codec: ['common', 'http'],
  telemetry: ['common'],
  testing: ['common', 'http'],
  policy: ['common'],
  toolkit: ['common', 'permissions', 'model', 'policy'],
  mcp: ['common', 'toolkit', 'permissions'],
  activities: ['common', 'permissions', 'telemetry', 'toolkit'],
  workflows: ['common', 'telemetry'],
  client: ['common', 'connection', 'codec', 'http', 'telemetry'],
  text: ['common'],
  nexus: ['common', 'client'],
  worker: ['common', 'activities', 'codec', 'connection', 'http', 'mcp', 'model', 'nexus', 'telemetry', 'toolkit', 'permissions', 'policy'],
  'mcp-server': ['common', 'client', 'codec', 'http', 'text'],
  a2a: ['common', 'client', 'codec', 'http', 'text'],
  inbox: ['common', 'client', 'codec', 'http', 'text'],
  slack: ['common', 'client', 'http', 'inbox'],
  eval: ['common', 'client', 'codec', 'connection', 'testing', 'toolkit', 'worker'],
  entry: ['common', 'activities', 'client', 'codec', 'connection', 'eval', 'mcp', 'model', 'nexus', 'permissions', 'telemetry', 'testing', 'toolkit', 'worker'],
};

const APPLICATION = new Set(['cli', 'demo']);

/** What the workflow bundle's code may load: the sandbox's own packages, and only sandbox-safe telemetry (the sinks). */
const WORKFLOW_PACKAGES = /^(@temporalio\/workflow|@temporalio\/common(\/lib\/[a-z-]+)?|zod)$/;
const WORKFLOW_TELEMETRY = new Set(['telemetry/permission-decided', 'telemetry/run-metrics']);
/** common/ is shared by the workflow sandbox, so it loads no Node module and no room above it (`@noble/hashes` is pure JavaScript: the run digests arguments too). */
const COMMON_PACKAGES = /^(@temporalio\/workflow|@temporalio\/common(\/lib\/[a-z-]+)?|zod|picomatch\/posix|@noble\/hashes\/[a-z0-9]+)$/;

/** Every import that breaks a rule, as `file → target: why`. */
export function importViolations(imports: readonly SourceImport[]): string[] {
  const problems: string[] = [];
  for (const { from, target, specifier, typeOnly } of imports) {
    const room = roomOf(from);
    const where = `${from} → ${target ?? specifier}`;
    if (target !== undefined && !target.startsWith('..')) {
      const targetRoom = roomOf(target);
      if (APPLICATION.has(targetRoom) && !APPLICATION.has(room)) problems.push(`${where}: only the application floor (cli, demo) imports ${targetRoom}/`);
      else if (!typeOnly && targetRoom !== room && !APPLICATION.has(room) && !(ALLOWED_ROOMS[room] ?? []).includes(targetRoom)) {
        problems.push(`${where}: ${room}/ does not import ${targetRoom}/ at run time`);
      }
      if (room === 'workflows' && !typeOnly && targetRoom === 'telemetry' && !WORKFLOW_TELEMETRY.has(target)) problems.push(`${where}: not sandbox-safe telemetry`);
    }
    if (room === 'workflows' && !typeOnly && target === undefined && !WORKFLOW_PACKAGES.test(specifier)) problems.push(`${where}: the workflow sandbox loads only Temporal's workflow packages and zod`);
    if (room === 'common' && !typeOnly && target === undefined && !COMMON_PACKAGES.test(specifier)) problems.push(`${where}: common/ loads no Node or worker package`);
    if (room === 'common' && target?.startsWith('..') && target !== '../package.json') problems.push(`${where}: common/ reads nothing outside src but package.json`);
  }
  return problems;
}

/** The owner of tool-call records: only its own files import its insides, the rest its door (calls/index). */
const CALLS = 'workflows/calls/';

export function callsDoorViolations(imports: readonly SourceImport[]): string[] {
  return imports
    .filter(({ from, target }) => target?.startsWith(CALLS) && !from.startsWith(CALLS) && target !== `${CALLS}index`)
    .map(({ from, target }) => `${from} → ${target}: only workflows/calls/ imports its insides; use workflows/calls (its index)`);
}

/** Writes of a call record's lifecycle (its phase, its answers, the run's list of records) outside calls/, as `file: line`. */
export function callRecordWrites(files: ReadonlyMap<string, string>): string[] {
  const write = /(?:\.(?:phase|answer|submission|askedAt|externalAt)|\bstate\.calls)\s*=(?!=)|\bwritable\(|\bmove\(/;
  const found: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith(CALLS) || !file.startsWith('workflows/')) continue;
    text.split('\n').forEach((line, index) => {
      if (write.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

/** The circles among files of one room (type-only imports count: they tie the files' meanings together). */
export function circlesIn(imports: readonly SourceImport[], room: string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { from, target } of imports) {
    if (roomOf(from) !== room || !target || roomOf(target) !== room || from === target) continue;
    (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(target);
  }
  // Tarjan's strongly connected components; a component of more than one file is a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return circles;
}
