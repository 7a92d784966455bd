const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls Temporal until it answers, up to `deadline`: under chaos the server (or one of its processes) is down for a while, on purpose. */
export async function persist<T>(what: () => Promise<T>, deadline: number): Promise<T> {
  for (;;) {
    try {
      return await what();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}
