/** How the result of a call answered from an earlier one (see workflows/calls/repeated-calls.ts) begins. */
export const REPEAT_NOTE_START = 'This call repeats call ';

/** The result a repeated call gets: the earlier call's, with a note that nothing ran again. */
export function repeatNote(earlierCallId: string, earlierResult: string): string {
  return `${REPEAT_NOTE_START}${earlierCallId}, which already ran with the same arguments; it was not run again. Its result:\n${earlierResult}`;
}
