/**
 * The work a server started for its requests that has not ended yet. A server's `close()` waits for
 * it, so nothing of the server still runs — a read of a run with its deadline timer, a call to
 * Slack — once `close()` has resolved.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = () => void this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
