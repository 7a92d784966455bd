/** Times two kinds of work alternately (after `warmup` of each): each sample is one call's milliseconds. */
export async function timeAlternating(
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
  options: { warmup: number; rounds: number },
): Promise<[number[], number[]]> {
  const timed = async (work: () => Promise<unknown>) => {
    const began = performance.now();
    await work();
    return performance.now() - began;
  };
  for (let i = 0; i < options.warmup; i++) {
    await first();
    await second();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < options.rounds; i++) {
    a.push(await timed(first));
    b.push(await timed(second));
  }
  return [a, b];
}
