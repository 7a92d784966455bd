/**
 * What the Web UI's Send Signal, Query and Update lists say of each handler. Temporal lists every
 * handler a workflow registers and offers no way to hide one, so the runtime's own say so.
 */
export const HANDLER_DESCRIPTIONS = {
  approve: 'Approve a call that waits for approval: {"callId": "...", "input"?: {...edited arguments}, "reason"?: "...", "remember"?: "session"}',
  deny: 'Deny a call that waits for approval; the model reads the reason: {"callId": "...", "reason"?: "..."}',
  approveAll: 'Approve every call that waits for approval now, except a budget call: {} or {"remember": "session"}',
  submitToolResult: 'The result of an external call: {"callId": "...", "output": "...", "isError"?: true}',
  setGroups: 'Change the active tool groups: {"activate"?: ["group"], "deactivate"?: ["group"]}',
  decide: 'Approve or deny a waiting call and learn at once whether the run took it: {"callId": "...", "approved": true}',
  delegate: 'Hand a call that waits for approval to other approvers, who alone may answer it then: {"callId": "...", "to": ["name" or "group:NAME"], "answeredBy": "..."}',
  submitToolResultUpdate: "An external call's result, answered with whether the run took it: {\"callId\": \"...\", \"output\": \"...\"}",
  addInput: 'Add a user message while the run works or waits; its next model call sees it: {"text": "...", "addedBy"?: "..."}',
  state: "The run's state: status, pending calls with their records, messages, usage",
  events: "The run's events after a sequence number (0 for all)",
  internal: "Internal to durable-agent (a sub-agent's report, the worker's conversation reads): not meant to be sent or called by hand",
} as const;
