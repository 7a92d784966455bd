import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z, type AnyZodObject } from 'zod';
import type { AgentClient } from '../client/agent-client';
import { MAX_WAITING_PAGE_SIZE } from '../client/waiting-calls';
import { RUN_STATUSES } from '../common/run';
import { runFilter } from '../client/run-filter';

/** A tool of the MCP server that reads or answers runs (the agents' own tools are made apart). */
export interface RunTool {
  name: string;
  description: string;
  input: AnyZodObject;
  readOnly: boolean;
  call(args: never, client: AgentClient): Promise<CallToolResult>;
}

const runId = () => z.string().min(1).describe('The run id (its Temporal workflow id), as the agent tool or list_runs gave it');
const callId = () => z.string().min(1).describe('The waiting call id, as list_pending or the run state gave it');
const hex = () => z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
/** What the answer was given for, as list_pending gave it: the run refuses the answer when the call's arguments or rules changed since. */
const bound = () => ({
  argumentsDigest: hex().optional().describe("The call's argumentsDigest, as list_pending gave it: refused if its arguments are other ones now"),
  rulesVersion: hex().optional().describe("The call's rulesVersion, as list_pending gave it: refused if the rules changed since"),
});
const boundOf = (args: { argumentsDigest?: string; rulesVersion?: string }) => ({
  ...(args.argumentsDigest ? { argumentsDigest: args.argumentsDigest } : {}),
  ...(args.rulesVersion ? { rulesVersion: args.rulesVersion } : {}),
});

export const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: (Array.isArray(value) ? { items: value } : value) as Record<string, unknown>,
});

const done = (text: string, value: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text }], structuredContent: value });

function define<I extends AnyZodObject>(tool: { name: string; description: string; input: I; readOnly: boolean; call(args: z.infer<I>, client: AgentClient): Promise<CallToolResult> }): RunTool {
  return tool as unknown as RunTool;
}

/** The run tools, by name: list, read, answer and cancel runs. */
export const RUN_TOOLS: RunTool[] = [
  define({
    name: 'list_runs',
    description: 'Recent agent runs and conversations with their status (newest first).',
    input: z.object({
      // Both end up in a visibility query: only what an agent name and a status can be.
      agent: z.string().regex(/^[a-zA-Z0-9_.-]+$/, 'an agent name: letters, digits, ".", "_" or "-"').optional().describe('Only runs of this agent'),
      status: z.enum(RUN_STATUSES).optional().describe('Only runs with this status, e.g. awaiting_approval'),
      limit: z.number().int().min(1).max(100).optional().describe('At most this many (20)'),
    }).strict(),
    readOnly: true,
    call: async ({ agent, status, limit }, client) => {
      const query = runFilter({ agent, status });
      const runs = await client.list({ ...(query ? { query } : {}), limit: limit ?? 20 });
      return json(runs.map((run) => ({ runId: run.workflowId, agent: run.agent, status: run.status ?? run.temporalStatus, startTime: run.startTime.toISOString() })));
    },
  }),
  define({
    name: 'run_state',
    description: "A run's state: status, iterations, usage, current step, the calls that wait, the answer once there is one.",
    input: z.object({ runId: runId() }).strict(),
    readOnly: true,
    call: async ({ runId }, client) => {
      const { messages: _messages, ...state } = await client.get(runId).state();
      return json(state);
    },
  }),
  define({
    name: 'run_events',
    description: "A run's events (model calls, tool calls, approvals, sub-agents), after a sequence number.",
    input: z.object({ runId: runId(), afterSeq: z.number().int().min(0).optional().describe('Only events after this sequence number (0)') }).strict(),
    readOnly: true,
    call: async ({ runId, afterSeq }, client) => json(await client.get(runId).eventsAfter(afterSeq ?? 0)),
  }),
  define({
    name: 'list_pending',
    description:
      'The calls that wait for a person (an approval or an external result), one page at a time, each with the run that holds it (answer through that runId); ' +
      'runs listed as waiting whose calls cannot be read here come after, with why. When nextPageToken is set, more wait: pass it as pageToken.',
    input: z
      .object({
        pageToken: z.string().max(16_384).optional().describe('nextPageToken of the previous page'),
        pageSize: z.number().int().min(1).max(MAX_WAITING_PAGE_SIZE).optional().describe('Runs read per page (100)'),
      })
      .strict(),
    readOnly: true,
    call: async ({ pageToken, pageSize }, client) => {
      const page = await client.waitingCalls({ ...(pageToken ? { pageToken } : {}), ...(pageSize ? { pageSize } : {}) });
      return json({
        calls: page.calls.map((call) => ({
          runId: call.workflowId,
          ...(call.top ? { topRunId: call.top.workflowId } : {}),
          agent: call.agent,
          callId: call.callId,
          kind: call.kind,
          tool: call.tool,
          ...(call.input !== undefined ? { arguments: call.input } : { argumentsPreview: call.preview }),
          ...(call.reason ? { reason: call.reason } : {}),
          since: call.since,
          ...boundOf(call),
          ...(call.approvers ? { approvers: call.approvers } : {}),
        })),
        unreadable: page.unreadable.map((run) => ({ runId: run.workflowId, agent: run.agent, status: run.status, unreadable: run.unreadable })),
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      });
    },
  }),
  define({
    name: 'approve_call',
    description: "Approve a call that waits for approval, optionally with edited arguments (checked against the tool's schema) and a reason.",
    input: z.object({
      runId: runId(),
      callId: callId(),
      arguments: z.record(z.unknown()).optional().describe("Replacement arguments; the tool's schema checks them"),
      reason: z.string().optional(),
      remember: z.boolean().optional().describe('Allow such calls for the rest of the run'),
      ...bound(),
    }).strict(),
    readOnly: false,
    call: async ({ runId, callId, arguments: input, reason, remember, ...shown }, client) => {
      const decision = await client.get(runId).approve(callId, { ...(input ? { input } : {}), ...(reason ? { reason } : {}), ...(remember ? { remember } : {}), ...boundOf(shown) });
      return done(`Approved ${callId}.`, { ...decision });
    },
  }),
  define({
    name: 'deny_call',
    description: 'Deny a call that waits for approval; the model is told the reason.',
    input: z.object({ runId: runId(), callId: callId(), reason: z.string().optional(), ...bound() }).strict(),
    readOnly: false,
    call: async ({ runId, callId, reason, ...shown }, client) => {
      const decision = await client.get(runId).deny(callId, reason, boundOf(shown));
      return done(`Denied ${callId}.`, { ...decision });
    },
  }),
  define({
    name: 'submit_result',
    description: 'Give the result of an external tool call the run waits for.',
    input: z.object({ runId: runId(), callId: callId(), output: z.string(), isError: z.boolean().optional() }).strict(),
    readOnly: false,
    call: async ({ runId, callId, output, isError }, client) => {
      const submitted = await client.get(runId).submit(callId, output, { ...(isError ? { isError } : {}) });
      return done(`Submitted the result of ${callId}.`, { ...submitted });
    },
  }),
  define({
    name: 'add_input',
    description: "Add a user message to a run while it works or waits (steering): the run's next model call sees it, once. Refused once the run has ended.",
    input: z.object({ runId: runId(), text: z.string().min(1).describe('The message, as the user would write it') }).strict(),
    readOnly: false,
    call: async ({ runId, text }, client) => {
      const added = await client.get(runId).addInput(text);
      return done(`Input ${added.position} added to ${runId}.`, { runId, ...added });
    },
  }),
  define({
    name: 'cancel_run',
    description: 'Cancel a run (its sub-agents and running tools are cancelled too).',
    input: z.object({ runId: runId() }).strict(),
    readOnly: false,
    call: async ({ runId }, client) => {
      await client.get(runId).cancel();
      return done(`Cancellation of ${runId} requested.`, { runId });
    },
  }),
];
