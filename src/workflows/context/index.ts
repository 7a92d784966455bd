/**
 * The conversation as the model and the readers see it: the newest messages, pages and deltas of
 * it, and the user's inputs queued while the run works (steering).
 */
export { deltaStart } from './conversation-delta';
export { conversationPage } from './conversation-page';
export { RESULT_MESSAGES_BYTES, newestMessages } from './newest-messages';
export { referencingDelta } from './referencing-delta';
export { CHARS_PER_TOKEN, estimatedTokens } from './token-estimate';
export { addInput, deliverInputs, hasQueuedInput, inputRefusal, interruptibleCall } from './steering';
