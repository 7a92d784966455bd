import { setDefaultSignalHandler, setHandler } from '@temporalio/workflow';
import type { HandlerName, Payload } from '../common/boundary/payload-schemas';
import { acceptedRequest, parseInput, validated } from './parse-input';
import {
  approveAllSignal,
  approveSignal,
  conversationPageQuery,
  conversationQuery,
  decideUpdate,
  denySignal,
  eventsQuery,
  setGroupsSignal,
  stateQuery,
  submitToolResultSignal,
  submitToolResultUpdate,
} from '../common/definitions';
import { approvalProblem, pendingOfKind, submissionProblem } from './decisions';
import { changeGroups } from './equip-groups';
import { eventsAfter } from './event-log';
import { conversationPage } from './conversation-page';
import { recordDecision, recordSubmission } from './record-answers';
import { callIdOf, rejectInput } from './reject-input';
import { snapshotState, type RunState } from './run-state';

/**
 * Every message from outside is parsed by its schema before use. A signal the run cannot use is
 * rejected with an `input_rejected` event; an update is refused in its validator with the reason;
 * a query answers with an error. No handler lets an error reach the workflow task.
 */

function onSignal<H extends HandlerName>(state: RunState, handler: H, apply: (value: Payload<H>) => unknown): (raw: unknown) => Promise<void> {
  return async (raw) => {
    const parsed = parseInput(state, handler, raw);
    if (!parsed.ok) return rejectInput(state, handler, parsed.reason, callIdOf(raw));
    try {
      await apply(parsed.value);
    } catch (error) {
      rejectInput(state, handler, `${handler}: ${(error as Error)?.message ?? String(error)}`, callIdOf(raw));
    }
  };
}

function queryArgument<H extends HandlerName>(state: RunState, handler: H, raw: unknown): Payload<H> {
  return validated(state, handler, raw);
}

export function installHandlers(state: RunState): void {
  setHandler(stateQuery, () => snapshotState(state));
  setHandler(eventsQuery, (afterSeq?: unknown) => eventsAfter(state, queryArgument(state, 'events', afterSeq)));
  setHandler(conversationQuery, (count: unknown) => state.messages.slice(0, queryArgument(state, 'conversation', count)));
  setHandler(conversationPageQuery, (page: unknown) => conversationPage(state.messages, queryArgument(state, 'conversationPage', page)));

  setHandler(
    approveSignal,
    onSignal(state, 'approve', (req) => recordDecision(state, { ...req, approved: true }, true)),
  );
  setHandler(
    denySignal,
    onSignal(state, 'deny', (req) => recordDecision(state, { ...req, approved: false }, true)),
  );
  setHandler(
    approveAllSignal,
    onSignal(state, 'approveAll', async (req) => {
      for (const pending of [...pendingOfKind(state, 'approval')]) {
        await recordDecision(state, { callId: pending.callId, approved: true, ...(req.remember ? { remember: req.remember } : {}) }, true).catch(
          (error: Error) => rejectInput(state, 'approveAll', `approveAll: ${error.message}`, pending.callId),
        );
      }
    }),
  );
  setHandler(
    submitToolResultSignal,
    onSignal(state, 'submitToolResult', (req) => {
      recordSubmission(state, req, true);
    }),
  );
  setHandler(
    setGroupsSignal,
    onSignal(state, 'setGroups', (req) => {
      const { active, unknown } = changeGroups(state.descriptor, state.activeGroups, req);
      state.activeGroups = active;
      if (unknown.length > 0) rejectInput(state, 'setGroups', `setGroups: unknown group(s) ${unknown.map((n) => `'${n}'`).join(', ')} were ignored`);
    }),
  );

  setHandler(decideUpdate, (req) => recordDecision(state, acceptedRequest(state, 'decide', req)), {
    validator: (req) => {
      const request = validated(state, 'decide', req);
      const problem = approvalProblem(state, request.callId);
      if (problem) throw new Error(problem);
    },
  });
  setHandler(
    submitToolResultUpdate,
    (req) => recordSubmission(state, acceptedRequest(state, 'submitToolResultUpdate', req)),
    {
      validator: (req) => {
        const request = validated(state, 'submitToolResultUpdate', req);
        const problem = submissionProblem(state, request.callId);
        if (problem) throw new Error(problem);
      },
    },
  );

  // A signal with a name the run does not know would otherwise wait in a buffer unseen.
  setDefaultSignalHandler((name: string) => rejectInput(state, name, `'${name}' is not a signal of an agent run`));
}
