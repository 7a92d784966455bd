import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: a package, the project's room, or Node itself. */
export function originOf(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src|bench)\/([^/]+)\//.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  if (url.includes('workflow-bundle')) return '(workflow bundle)';
  if (url.startsWith('node:')) return 'node';
  return url.split('/').slice(-1)[0]!;
}

/** Self time per origin (ms) of one profile. */
export function selfTimeByOrigin(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const origin = node.callFrame.functionName === '(garbage collector)' ? '(gc)' : node.callFrame.functionName === '(idle)' ? '(idle)' : originOf(node.callFrame.url);
    totals.set(origin, (totals.get(origin) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return totals;
}

/** Every .cpuprofile in `dir` (one per thread), each as its busy total and top origins. */
export function summarizeProfiles(dir: string, top = 12): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => {
      const totals = selfTimeByOrigin(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
      const busy = [...totals].filter(([origin]) => origin !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
      const rows = [...totals].filter(([origin]) => origin !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top);
      return `${file}: busy ${busy.toFixed(0)} ms\n${rows.map(([origin, ms]) => `  ${ms.toFixed(0).padStart(6)} ms  ${((ms / busy) * 100).toFixed(1).padStart(5)}%  ${origin}`).join('\n')}`;
    });
}
