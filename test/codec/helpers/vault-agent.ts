import { z } from 'zod';
import type { ScriptFunction } from '../../../src/testing/scripted-model-types';
import { defineAgent } from '../../../src/toolkit/define-agent';
import { defineTool } from '../../../src/toolkit/define-tool';
import { RetryableToolError } from '../../../src/toolkit/tool-errors';

/** Marked strings of one run, so a test can look for each of them in the history. */
export interface RunSecrets {
  prompt: string;
  lookupArgument: string;
  refundArgument: string;
  editedArgument: string;
  answer: string;
}

export const LOOKUP_RESULT = 'RESULT-LOOKUP-e6a1';
export const REFUND_RESULT = 'RESULT-REFUND-0f7c';

export function runSecrets(tag: string): RunSecrets {
  return {
    prompt: `PROMPT-${tag}: my card ending 4242 was charged twice`,
    lookupArgument: `ARG-LOOKUP-${tag}`,
    refundArgument: `ARG-REFUND-${tag}`,
    editedArgument: `ARG-EDITED-${tag}`,
    answer: `ANSWER-${tag}`,
  };
}

/** What the lookup's first attempt for an account throws: the failure Temporal records before the retry that succeeds. */
export function lookupFailure(account: string): string {
  return `FAILURE-of-${account}`;
}

const failedOnce = new Set<string>();

const lookupAccount = defineTool({
  name: 'lookup_account',
  description: 'Look up an account.',
  input: z.object({ account: z.string() }),
  readOnly: true,
  execute: ({ account }) => {
    if (!failedOnce.has(account)) {
      failedOnce.add(account);
      throw new RetryableToolError(lookupFailure(account));
    }
    return `${LOOKUP_RESULT} for ${account}`;
  },
});

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => `${REFUND_RESULT} on ${order_id}`,
});

/** A read-only lookup that runs at once (its first attempt fails, so history holds a failure) and a refund that waits for approval. */
export const vaultAgent = defineAgent({
  name: 'vault-agent',
  instructions: 'Look the account up, then refund.',
  tools: [lookupAccount, refund],
  permissions: { ask: ['refund'] },
});

/**
 * Turn 0: the two calls, with arguments derived from the prompt the model received (so the model
 * call had to read the decrypted conversation); turn 1: the answer, quoting both tool results.
 */
export const vaultScript: ScriptFunction = (_request, info) => {
  // A prompt that starts REFUSE- gets the provider's 400 quoting it: the run fails with that message.
  if (info.lastUserText.startsWith('REFUSE-')) return { faults: [{ status: 400, body: { error: { message: `Refused: ${info.lastUserText}`, type: 'invalid_request_error' } } }] };
  const tag = /^PROMPT-([\w-]+):/.exec(info.lastUserText)?.[1];
  if (info.turnIndex === 0) {
    if (!tag) return 'I could not read the prompt.';
    const secrets = runSecrets(tag);
    return {
      toolCalls: [
        { name: 'lookup_account', arguments: { account: secrets.lookupArgument } },
        { name: 'refund', arguments: { order_id: secrets.refundArgument } },
      ],
    };
  }
  return `ANSWER-${tag ?? 'unknown'}: ${info.toolResults.map((r) => r.content).join(' | ')}`;
};
