import { SLICE_WRITERS, SLICES, type SliceName } from '../../src/workflows/state/slices';
import type { SourceImport } from './import-graph';

/**
 * The rooms of src/workflows/ and what each may import (type-only imports included: a room that
 * names a higher room's types depends on it as much), lowest first. `(root)` is the bundle's entry.
 */
export const WORKFLOW_ROOMS: Record<string, readonly string[]> = {
  platform: [],
  state: [],
  effects: ['platform', 'state'],
  input: ['platform', 'state', 'effects'],
  context: ['platform', 'state', 'effects'],
  toolset: ['platform', 'state', 'effects'],
  calls: ['platform', 'state', 'effects', 'input', 'toolset'],
  spend: ['platform', 'state', 'effects', 'input', 'context', 'calls'],
  model: ['platform', 'state', 'effects', 'context', 'toolset', 'spend'],
  tools: ['platform', 'state', 'effects', 'toolset', 'calls', 'spend'],
  run: ['platform', 'state', 'effects', 'input', 'context', 'toolset', 'calls', 'spend', 'model', 'tools'],
  quota: ['platform'],
  '(root)': ['run', 'quota'],
};

const WORKFLOWS = 'workflows/';

/** The room of a path under src/workflows/ (its folder; `(root)` for its own files), or undefined outside. */
export function workflowRoomOf(path: string): string | undefined {
  if (!path.startsWith(WORKFLOWS)) return undefined;
  const parts = path.slice(WORKFLOWS.length).split('/');
  return parts.length === 1 ? '(root)' : parts[0];
}

/** Imports among the rooms that break the table: a room reaching up, or into another room past its door (its index). */
export function workflowRoomViolations(imports: readonly SourceImport[]): string[] {
  const problems: string[] = [];
  for (const { from, target } of imports) {
    if (target === undefined) continue;
    const to = workflowRoomOf(target);
    if (to === undefined || to === '(root)') continue;
    const room = workflowRoomOf(from);
    if (room === to) continue;
    const where = `${from} → ${target}`;
    if (room !== undefined && !(WORKFLOW_ROOMS[room] ?? []).includes(to)) problems.push(`${where}: workflows/${room}/ does not import workflows/${to}/`);
    if (target !== `${WORKFLOWS}${to}/index` && !(to === 'quota' && room === '(root)')) problems.push(`${where}: import workflows/${to} (its index), not its insides`);
  }
  return problems;
}

/** The longest chain of rooms that import one another (each room counts one level). */
export function roomLevels(table: Record<string, readonly string[]>): Map<string, number> {
  const levels = new Map<string, number>();
  const level = (room: string, path: readonly string[]): number => {
    if (path.includes(room)) throw new Error(`a circle of rooms: ${[...path, room].join(' → ')}`);
    const known = levels.get(room);
    if (known !== undefined) return known;
    const own = 1 + Math.max(0, ...(table[room] ?? []).map((lower) => level(lower, [...path, room])));
    levels.set(room, own);
    return own;
  };
  for (const room of Object.keys(table)) level(room, []);
  return levels;
}

/** Temporal's calls that write outward from a run: only workflows/effects/ names them. */
const TEMPORAL_WRITERS = /\b(upsertSearchAttributes|upsertTypedSearchAttributes|upsertMemo|setCurrentDetails)\b/;
/** The effects' own writers: only workflows/effects/ calls them (the rest applies a Change). */
const EFFECT_CALLS = /\b(recordEvent|setStatus|setStep|publishUsage|announceAgent|notifyWait|deliverNotice)\(/;

/** Lines outside workflows/effects/ that write an event, the status, details, memo, search attributes or notices, as `file:line: text`. */
export function effectWrites(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.startsWith(WORKFLOWS) || file.startsWith(`${WORKFLOWS}effects/`)) continue;
    text.split('\n').forEach((line, index) => {
      if ((TEMPORAL_WRITERS.test(line) || EFFECT_CALLS.test(line)) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

const SLICE_OF = new Map<string, SliceName>(Object.entries(SLICES).flatMap(([slice, fields]) => fields.map((field) => [field, slice as SliceName] as const)));
const WRITE = /\bstate\.(\w+)\s*(?:[-+*/]?=(?!=)|\+\+|--|\.(?:push|splice|unshift|pop|shift|sort|reverse|fill)\()/g;

/** Writes of a slice of the run's state by a room that does not own it (run/ owns them all), as `file:line: text`. */
export function sliceWrites(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const room = workflowRoomOf(file);
    if (room === undefined || room === 'run' || room === '(root)') continue;
    text.split('\n').forEach((line, index) => {
      for (const match of line.matchAll(WRITE)) {
        const slice = SLICE_OF.get(match[1]!);
        if (slice && !SLICE_WRITERS[slice].includes(room)) found.push(`${file}:${index + 1}: ${match[0].trim()} (the ${slice} slice: ${SLICE_WRITERS[slice].join(', ')})`);
      }
    });
  }
  return found;
}

/** Files outside workflows/run/ (and the state's own home) that take the run's state whole, as `file:line: text`. */
export function wholeStateTakers(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const room = workflowRoomOf(file);
    if (room === undefined || room === 'run' || room === 'state' || room === '(root)') continue;
    text.split('\n').forEach((line, index) => {
      if (/\bRunState\b/.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}
