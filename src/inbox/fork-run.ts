import { WorkflowNotFoundError } from '@temporalio/client';
import type { AgentClient } from '../client/agent-client';
import { ForkRefusedError } from '../client/fork/fork-point';
import type { ParsedFork } from './fork-form';

export type ForkOutcome = { ok: true; workflowId: string } | { ok: false; status: number; refusal: string };

/** Starts the fork a run page's form asks for; what stopped it (the form, the run, the fork's own checks) comes back as the refusal. */
export async function forkRun(client: AgentClient, workflowId: string, form: ParsedFork): Promise<ForkOutcome> {
  if (!form.ok) return { ok: false, status: 422, refusal: form.message };
  try {
    const fork = await client.get(workflowId).fork(form.request);
    return { ok: true, workflowId: fork.workflowId };
  } catch (error) {
    if (error instanceof ForkRefusedError) return { ok: false, status: 409, refusal: `Not forked: ${error.message}. Nothing was started.` };
    if (error instanceof WorkflowNotFoundError || (error as { code?: number }).code === 5) return { ok: false, status: 404, refusal: `No run ${workflowId}: nothing was started.` };
    return { ok: false, status: 500, refusal: `The fork could not be started: ${(error as Error)?.message ?? String(error)}` };
  }
}
