import { z } from 'zod';

/**
 * What the tool reads of a remote agent's reply (the SDK's client gives it parsed from the wire;
 * these schemas check the fields used, so a remote that sends something else is told apart).
 */
const partSchema = z
  .object({
    content: z
      .union([
        z.object({ $case: z.literal('text'), value: z.string() }),
        z.object({ $case: z.literal('data'), value: z.unknown() }),
        z.object({ $case: z.string(), value: z.unknown() }),
      ])
      .optional(),
  })
  .passthrough();

const messageSchema = z.object({ messageId: z.string(), parts: z.array(partSchema) }).passthrough();

export const remoteTaskSchema = z
  .object({
    id: z.string().min(1),
    status: z.object({ state: z.number().int(), message: z.object({ parts: z.array(partSchema) }).passthrough().optional() }).passthrough(),
    artifacts: z.array(z.object({ parts: z.array(partSchema) }).passthrough()).default([]),
  })
  .passthrough();

/** The A2A task states (TaskState of A2A 1.0), by number, as the SDK gives them. */
const STATES: Record<number, string> = { 1: 'submitted', 2: 'working', 3: 'completed', 4: 'failed', 5: 'canceled', 6: 'input-required', 7: 'rejected', 8: 'auth-required' };

function textOf(parts: z.infer<typeof partSchema>[]): string {
  return parts
    .map((part) => {
      const content = part.content;
      if (content?.$case === 'text') return content.value as string;
      if (content?.$case === 'data') return JSON.stringify(content.value);
      return undefined;
    })
    .filter((text): text is string => text !== undefined && text !== '')
    .join('\n');
}

/** A remote task that ended without an answer: the tool's call fails with this (the model reads it as an error). */
export class RemoteTaskFailedError extends Error {
  override name = 'RemoteTaskFailedError';
}

/**
 * The remote agent's reply as the model reads it: a message's text, or a completed task's answer
 * (its artifacts, else its status message). A task that waits for input is told as such, with its
 * id and what it waits for (this tool answers no remote approval); one that failed, was cancelled
 * or rejected throws.
 */
export function readRemoteAnswer(agent: string, reply: unknown): string {
  const message = messageSchema.safeParse(reply);
  if (message.success) return textOf(message.data.parts) || `The remote agent '${agent}' answered with no text.`;
  const task = remoteTaskSchema.safeParse(reply);
  if (!task.success) throw new RemoteTaskFailedError(`The remote agent '${agent}' sent a reply that is neither a message nor a task: ${task.error.issues[0]?.path.join('.')}: ${task.error.issues[0]?.message}`);
  const { id, status, artifacts } = task.data;
  const state = STATES[status.state] ?? `state ${status.state}`;
  const said = textOf(status.message?.parts ?? []);
  switch (state) {
    case 'completed':
      return artifacts.map((artifact) => textOf(artifact.parts)).filter(Boolean).join('\n\n') || said || `The remote agent '${agent}' completed task ${id} with no text.`;
    case 'input-required':
    case 'auth-required':
      return (
        `The remote agent '${agent}' has not finished: its task ${id} is ${state} and waits for a person there` +
        `${said ? `:\n${said}` : '.'}\nThis tool does not answer it; once it is answered at the remote agent, the task goes on there.`
      );
    case 'submitted':
    case 'working':
      return `The remote agent '${agent}' is still working on task ${id}${said ? ` (${said})` : ''}; it gave no answer yet.`;
    default:
      throw new RemoteTaskFailedError(`The remote agent '${agent}' ended task ${id} ${state}${said ? `: ${said}` : '.'}`);
  }
}
