import * as fs from 'node:fs';
import * as path from 'node:path';
import { filePatternMatcher } from '../files/glob-pattern';

const MAX_MATCHES = 1000;

export function hasGlob(unquoted: string): boolean {
  return /[*?[]/.test(unquoted);
}

/**
 * The paths a shell glob would expand to (bash defaults: names starting with a dot only
 * match a pattern starting with a dot). Undefined when there are too many to check.
 */
export function expandGlob(pattern: string, cwd: string): string[] | undefined {
  const absolute = path.isAbsolute(pattern);
  const parts = pattern.split('/').filter((part) => part !== '');
  let current = [absolute ? '/' : cwd];
  for (const part of parts) {
    const next: string[] = [];
    if (!/[*?[]/.test(part)) {
      for (const base of current) next.push(path.join(base, part));
    } else {
      const matches = filePatternMatcher(part);
      for (const base of current) {
        let names: string[];
        try {
          names = fs.readdirSync(base);
        } catch {
          continue;
        }
        for (const name of names) {
          if (name.startsWith('.') && !part.startsWith('.')) continue;
          if (matches(name)) next.push(path.join(base, name));
        }
        if (next.length > MAX_MATCHES) return undefined;
      }
    }
    current = next;
    if (current.length === 0) return [];
  }
  return current.filter(exists);
}

function exists(candidate: string): boolean {
  try {
    fs.lstatSync(candidate);
    return true;
  } catch {
    return false;
  }
}
