import { createHash } from 'node:crypto';

const MAX_NAME = 64;
const HASH_LENGTH = 8;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

function withHashSuffix(name: string, key: string): string {
  return `${name.slice(0, MAX_NAME - HASH_LENGTH - 1)}_${shortHash(key)}`;
}

/** Any text → a valid OpenAI function name (`^[a-zA-Z0-9_-]{1,64}$`), stable for the same input. */
export function toFunctionName(raw: string): string {
  const cleaned = raw.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
  return cleaned.length <= MAX_NAME ? cleaned : withHashSuffix(cleaned, raw);
}

export interface ToolToName {
  server: string;
  tool: string;
  /** The server's `prefix: true`. */
  alwaysPrefix: boolean;
}

/**
 * Names for MCP tools, in input order. A tool keeps its own (sanitized) name unless a code tool
 * has it, another server offers a tool of the same name, or its server asks for prefixes; then it
 * is `<server>__<tool>`. Remaining collisions get a stable hash suffix; nothing is ever replaced.
 */
export function assignToolNames(tools: readonly ToolToName[], takenNames: (name: string) => boolean): string[] {
  const serversByBase = new Map<string, Set<string>>();
  for (const { server, tool } of tools) {
    const base = toFunctionName(tool);
    serversByBase.set(base, (serversByBase.get(base) ?? new Set()).add(server));
  }
  const wanted = tools.map(({ server, tool, alwaysPrefix }) => {
    const base = toFunctionName(tool);
    const clash = alwaysPrefix || takenNames(base) || serversByBase.get(base)!.size > 1;
    return clash ? toFunctionName(`${server}__${tool}`) : base;
  });

  // Tools whose name needed no cleaning claim it first, so `a_b` keeps its name next to `a.b`.
  const order = tools
    .map((_, index) => index)
    .sort((a, b) => Number(wanted[b] === tools[b]!.tool) - Number(wanted[a] === tools[a]!.tool) || a - b);
  const used = new Set<string>();
  const names: string[] = new Array<string>(tools.length);
  for (const index of order) {
    const { server, tool } = tools[index]!;
    let name = wanted[index]!;
    if (used.has(name) || takenNames(name)) name = withHashSuffix(name, `${server}\u0000${tool}`);
    if (used.has(name) || takenNames(name)) {
      throw new Error(`MCP tool '${tool}' of server '${server}' cannot be named: '${name}' is already taken.`);
    }
    used.add(name);
    names[index] = name;
  }
  return names;
}
