/** The parts of `npm run bench`, in the order they run. */
export const BENCH_PARTS = ['p1', 'start', 'cli', 'p2', 'p4', 'p5', 'conv', 'sub', 'fork', 'loop', 'cases', 'stream', 'fair', 'quota', 'p3', 'wait', 'model', 'evals', 'policy', 'remind', 'nexus', 'schedule'] as const;

export type BenchPart = (typeof BENCH_PARTS)[number];

/** BENCH_ONLY, e.g. `p1,p3`: the parts to run; every part when unset. */
export function selectedParts(only: string | undefined): Set<BenchPart> {
  if (!only?.trim()) return new Set(BENCH_PARTS);
  const names = only.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((name) => !(BENCH_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown part(s) ${unknown.join(', ')}; parts: ${BENCH_PARTS.join(', ')}`);
  return new Set(names as BenchPart[]);
}
