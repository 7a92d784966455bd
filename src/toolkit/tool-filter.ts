import type { ToolFilter } from './define-agent';

function nameGlob(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export interface FilterOutcome {
  kept: string[];
  /** Patterns that matched no tool at all: probably a typo worth a warning. */
  unmatchedPatterns: string[];
}

/** Deny beats allow; an empty allow list means no restriction. */
export function applyToolFilter(names: string[], filter: ToolFilter | undefined): FilterOutcome {
  const allow = filter?.allow ?? [];
  const deny = filter?.deny ?? [];
  const allowRes = allow.map(nameGlob);
  const denyRes = deny.map(nameGlob);
  const kept = names.filter(
    (name) => (allowRes.length === 0 || allowRes.some((re) => re.test(name))) && !denyRes.some((re) => re.test(name)),
  );
  const unmatchedPatterns = [...allow, ...deny].filter((pattern) => !names.some((name) => nameGlob(pattern).test(name)));
  return { kept, unmatchedPatterns };
}
