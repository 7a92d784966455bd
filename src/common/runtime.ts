/**
 * Values the client sets when a run starts and every tool receives as `ctx.runtime`.
 * The model never sees them and cannot set them.
 */
export interface RuntimeContext {
  userId?: string;
  sessionId?: string;
  [key: string]: unknown;
}
