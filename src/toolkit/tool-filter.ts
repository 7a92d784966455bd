import { wildcardMatcher } from '../common/glob';
import type { ToolFilter } from './define-agent';


export interface FilterOutcome {
  kept: string[];
  /** Patterns that matched no tool at all: probably a typo worth a warning. */
  unmatchedPatterns: string[];
}

/** Deny beats allow; an empty allow list means no restriction. */
export function applyToolFilter(names: string[], filter: ToolFilter | undefined): FilterOutcome {
  const allow = filter?.allow ?? [];
  const deny = filter?.deny ?? [];
  const allowed = allow.map((pattern) => wildcardMatcher(pattern));
  const denied = deny.map((pattern) => wildcardMatcher(pattern));
  const kept = names.filter((name) => (allowed.length === 0 || allowed.some((matches) => matches(name))) && !denied.some((matches) => matches(name)));
  const unmatchedPatterns = [...allow, ...deny].filter((pattern) => !names.some(wildcardMatcher(pattern)));
  return { kept, unmatchedPatterns };
}
