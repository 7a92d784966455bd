import type { WorkerInterceptors } from '@temporalio/worker';

/**
 * The project's interceptors and the user's, together: workflow interceptor modules and activity
 * and Nexus interceptor factories run in the order given (the project's first, so the user's see
 * what the project's add, such as tracing context). Client interceptors are the user's alone.
 */
export function composeWorkerInterceptors(...sets: (WorkerInterceptors | undefined)[]): WorkerInterceptors {
  const present = sets.filter((set): set is WorkerInterceptors => set !== undefined);
  const client = present.map((set) => set.client).filter((c) => c !== undefined).pop();
  return {
    workflowModules: present.flatMap((set) => set.workflowModules ?? []),
    activity: present.flatMap((set) => set.activity ?? []),
    nexus: present.flatMap((set) => set.nexus ?? []),
    ...(client ? { client } : {}),
  };
}
