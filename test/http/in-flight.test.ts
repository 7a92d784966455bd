import { InFlight } from '../../src/http';

describe("a server's work in flight", () => {
  test('settled() resolves once every tracked piece of work ended, the failed ones too, and the work started meanwhile', async () => {
    const work = new InFlight();
    const ended: string[] = [];
    const later = (name: string, ms: number, fails = false) =>
      new Promise<void>((resolve, reject) => setTimeout(() => (ended.push(name), fails ? reject(new Error(name)) : resolve()), ms));
    void work.track(later('read', 30));
    work.track(later('refused', 10, true)).catch(() => undefined);
    void work.track(later('first', 5).then(() => void work.track(later('started meanwhile', 40))));
    await work.settled();
    expect(ended.sort()).toEqual(['first', 'read', 'refused', 'started meanwhile']);
  });

  test('tracking hands back the same work, so the caller still sees its answer or its failure', async () => {
    const work = new InFlight();
    await expect(work.track(Promise.resolve(7))).resolves.toBe(7);
    await expect(work.track(Promise.reject(new Error('no')))).rejects.toThrow('no');
    await work.settled();
  });
});
