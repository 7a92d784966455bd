import { Role, TaskState, type Artifact, type Message, type Part, type TaskStatus } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

/** The A2A objects this server writes, built with every field the SDK's types ask for. */

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

export function agentMessage(ids: { taskId: string; contextId: string }, parts: Part[], messageId: string = randomUUID()): Message {
  return { messageId, contextId: ids.contextId, taskId: ids.taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

export function userMessage(ids: { taskId: string; contextId: string }, text: string, messageId: string): Message {
  return { messageId, contextId: ids.contextId, taskId: ids.taskId, role: Role.ROLE_USER, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

export function statusOf(state: TaskState, message?: Message, at: Date = new Date()): TaskStatus {
  return { state, message, timestamp: at.toISOString() };
}

/** The run's answer: its text, and its typed answer as a data part when the agent has one. */
export function answerArtifact(output: string, data: unknown): Artifact {
  return {
    artifactId: 'answer',
    name: 'answer',
    description: "The agent's answer",
    parts: [textPart(output), ...(data !== undefined ? [dataPart(data)] : [])],
    metadata: undefined,
    extensions: [],
  };
}

/** The text a model call writes, as it is written: one artifact per model call of the run (`text-<iteration>`). */
export function draftArtifact(iteration: number, text: string): Artifact {
  return { artifactId: `text-${iteration}`, name: 'draft', description: 'What the model writes, as it writes it', parts: [textPart(text)], metadata: undefined, extensions: [] };
}

/** The text of a message's text parts, joined by blank lines. */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : undefined))
    .filter((text): text is string => text !== undefined)
    .join('\n\n');
}

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
