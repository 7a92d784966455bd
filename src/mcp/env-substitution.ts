import type { JsonPath } from './json-locations';

export interface MissingVariable {
  variable: string;
  /** Where the reference is, e.g. ['mcpServers', 'github', 'env', 'TOKEN']. */
  path: JsonPath;
}

export interface SubstitutionResult<T> {
  value: T;
  missing: MissingVariable[];
}

type Env = Record<string, string | undefined>;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` (and `${VAR:-default}`) in every string value, never in keys. An unset
 * variable without a default is reported, not replaced by an empty string.
 */
export function substituteEnv<T>(value: T, env: Env, path: JsonPath = []): SubstitutionResult<T> {
  const missing: MissingVariable[] = [];
  const visit = (node: unknown, at: JsonPath): unknown => {
    if (typeof node === 'string') {
      return node.replace(REFERENCE, (reference, variable: string, fallback: string | undefined) => {
        const set = env[variable];
        if (set !== undefined && (set !== '' || fallback === undefined)) return set;
        if (fallback !== undefined) return fallback;
        missing.push({ variable, path: at });
        return reference;
      });
    }
    if (Array.isArray(node)) return node.map((item, index) => visit(item, [...at, index]));
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, visit(item, [...at, key])]));
    }
    return node;
  };
  return { value: visit(value, path) as T, missing };
}
