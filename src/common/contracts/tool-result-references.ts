import type { Message } from '../messages';

/**
 * A tool's result is recorded in history once, as the result of the activity that ran it. The next
 * model call names such results instead of carrying them again: the worker that ran the tool has
 * them (its tool-result cache), any other worker reads them through the run's query. Only results
 * of at least this many characters are named: below it the name costs about what the text does.
 */
export const REFERENCED_RESULT_MIN_CHARS = 512;

/** A result the model call names: the tool call's id, and the text's length and FNV-1a hash, so a cached text is used only when it is that text. */
export interface ToolResultReference {
  toolCallId: string;
  chars: number;
  hash: number;
}

/** The messages since the previous model call, with the named results' content left empty. */
export interface ReferencingDelta {
  messages: Message[];
  references: ToolResultReference[];
}

/** FNV-1a over the UTF-16 code units: cheap enough for the workflow, and a changed text shows. */
export function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
