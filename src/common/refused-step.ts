/** What a run's current step says while a step of it waits for a worker that serves its agent (a shared task queue). */
export function refusedStep(agent: string, activity: string): string {
  return `${REFUSED_STEP_PREFIX} '${agent}' (the ${activity} step)`;
}

export const REFUSED_STEP_PREFIX = 'waiting for a worker that serves agent';
