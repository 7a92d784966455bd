/** Resolves on Ctrl-C or SIGTERM (or when `also` settles first): how a serving command knows to stop. */
export function untilStopped(also?: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    void also?.then(stop);
  });
}
