import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface ReplayFixture {
  /** The release folder it was recorded in, e.g. `0.1.0`; empty for a file outside any folder. */
  release: string;
  /** Path below the histories folder, e.g. `0.1.0/approval-approved.json`. */
  id: string;
  path: string;
}

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsonFilesUnder(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

/** Every history fixture below `root`, in every release folder, sorted by release then name. */
export function listReplayFixtures(root: string): ReplayFixture[] {
  return jsonFilesUnder(root)
    .map((path) => {
      const id = relative(root, path).split(sep).join('/');
      const parts = id.split('/');
      return { release: parts.length > 1 ? parts[0]! : '', id, path };
    })
    .sort((a, b) => compareReleases(a.release, b.release) || a.id.localeCompare(b.id));
}

const RELEASE = /^(\d+)\.(\d+)\.(\d+)$/;

export function isReleaseName(name: string): boolean {
  return RELEASE.test(name);
}

/** Orders `x.y.z` release names numerically; anything else sorts first. */
export function compareReleases(a: string, b: string): number {
  const [pa, pb] = [RELEASE.exec(a), RELEASE.exec(b)];
  if (!pa || !pb) return Number(Boolean(pa)) - Number(Boolean(pb));
  for (let i = 1; i <= 3; i += 1) {
    const difference = Number(pa[i]) - Number(pb[i]);
    if (difference !== 0) return difference;
  }
  return 0;
}

type ReplayHistory = { events?: { startChildWorkflowExecutionInitiatedEventAttributes?: { workflowId?: string | null } | null }[] | null };

/**
 * The workflow id to replay a history under. A history does not record its own id, and most runs
 * do not depend on it; a run that started sub-agents named them `<its id>/<call id>`, so their ids
 * give its own back.
 */
export function replayWorkflowId(history: ReplayHistory, fallback: string): string {
  const child = history.events?.find((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)?.startChildWorkflowExecutionInitiatedEventAttributes;
  const childId = child?.workflowId;
  return childId && childId.includes('/') ? childId.slice(0, childId.lastIndexOf('/')) : fallback;
}
