import { MAX_WAITING_PAGE_SIZE, waitingCallsOf, type WaitingCallsPage } from '../../client/waiting-calls';
import { WAITING_STATE_TIMEOUT_MS } from '../../client/unreadable-run';
import type { CliCommand } from '../command';
import { stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { describeWaitingCalls, waitingRunsLink } from '../waiting-runs';
import type { AgentClient } from '../../client/agent-client';

/** `pending` that found waiting runs it could not read: exit code 4, so a script never takes it for "nothing is waiting". */
export const UNREADABLE_EXIT_CODE = 4;

function pageSizeOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text) || Number(text) > MAX_WAITING_PAGE_SIZE) throw new UsageError(`--page-size takes a whole number from 1 to ${MAX_WAITING_PAGE_SIZE}`);
  return Number(text);
}

/** One page when asked for one (--page-size or --page-token), otherwise every page. */
async function readPages(client: AgentClient, query: string | undefined, pageSize: number | undefined, pageToken: string | undefined): Promise<WaitingCallsPage> {
  const scope = query ? { query } : {};
  if (pageSize !== undefined || pageToken !== undefined) return client.waitingCalls({ ...scope, ...(pageSize ? { pageSize } : {}), ...(pageToken ? { pageToken } : {}) });
  const all: WaitingCallsPage = { calls: [], unreadable: [] };
  let token: string | undefined;
  do {
    const page = await client.waitingCalls({ ...scope, pageSize: MAX_WAITING_PAGE_SIZE, ...(token ? { pageToken: token } : {}) });
    all.calls.push(...page.calls);
    all.unreadable.push(...page.unreadable);
    token = page.nextPageToken;
  } while (token);
  return all;
}

export const pendingCommand: CliCommand = {
  name: 'pending',
  usage: 'pending [ID] [--query QUERY] [--page-size N] [--page-token TOKEN] [--json]',
  summary: 'Calls waiting for a person (approval or external result), with call ids, tools, arguments and the commands that answer them.',
  details:
    'Without ID: every waiting call of the namespace, read from visibility, where each run publishes the calls it\n' +
    'waits on (no run is asked; runs started before 0.6.0 publish nothing and are read through their state query).\n' +
    'Every page is read unless --page-size or --page-token asks for one page: then the next page token is printed\n' +
    '(--json: nextPageToken). A call that waits in a sub-agent run is listed at that run, which is where its answer goes.\n' +
    'With ID: the calls that run waits on, its sub-agents\' included.\n' +
    'A waiting run whose calls cannot be read is listed as unreadable with the reason: undecryptable (no keys,\n' +
    `or not the key it was encrypted with), no_answer (no worker answered within ${WAITING_STATE_TIMEOUT_MS / 1000} s) or error. Then the exit code is ${UNREADABLE_EXIT_CODE}.\n` +
    '--json prints { calls: [{ workflowId, agent, callId, tool, kind, since, reason?, suggestedRule?, input?, preview, startedBy?, top?,\n' +
    '  argumentsDigest?, rulesVersion?, approvers?, reminded?, escalated?, delegatedBy? }],\n' +
    '  unreadable: [{ workflowId, agent, status, unreadable: { reason, message } }], nextPageToken? }.',
  options: {
    query: { type: 'string', valueName: 'QUERY', description: "a visibility query that narrows the runs, e.g. \"TaskQueue = 'support'\"" },
    'page-size': { type: 'string', valueName: 'N', description: `read one page of this many waiting runs (at most ${MAX_WAITING_PAGE_SIZE})` },
    'page-token': { type: 'string', valueName: 'TOKEN', description: 'read the page after the one that printed this token' },
  },
  examples: ['pending', "pending --query \"TaskQueue = 'support'\"", 'pending --page-size 50 --json', 'pending support-ab12cd34 --json'],
  async run(ctx) {
    const pageSize = pageSizeOf(stringOption(ctx, 'page-size'));
    const pageToken = stringOption(ctx, 'page-token');
    const id = ctx.positionals[0];
    const query = stringOption(ctx, 'query');
    if (id && (pageSize !== undefined || pageToken !== undefined || query !== undefined)) throw new UsageError('--query, --page-size and --page-token list every waiting run: give no ID with them');
    const client = await ctx.connect();
    const found: WaitingCallsPage = id ? { calls: waitingCallsOf(id, await client.get(id).state()), unreadable: [] } : await readPages(client, query, pageSize, pageToken);
    const code = found.unreadable.length > 0 ? UNREADABLE_EXIT_CODE : 0;
    if (ctx.json) {
      printJson(ctx.output, found);
      return code;
    }
    if (found.calls.length === 0 && found.unreadable.length === 0) ctx.output.out(found.nextPageToken ? 'Nothing is waiting on this page.' : 'Nothing is waiting.');
    for (const line of describeWaitingCalls(found.calls)) ctx.output.out(line);
    for (const run of found.unreadable) {
      ctx.output.out(`${run.workflowId}  ${run.status ?? '?'}  unreadable (${run.unreadable.reason}): ${run.unreadable.message}`);
    }
    if (found.nextPageToken) ctx.output.out(`More wait: pending${query ? ` --query "${query}"` : ''} --page-size ${pageSize ?? 100} --page-token ${found.nextPageToken}`);
    if (found.calls.length > 0 || found.unreadable.length > 0) ctx.output.out(`Runs waiting in the Web UI: ${waitingRunsLink(client.config)}`);
    if (code !== 0) {
      const count = found.unreadable.length;
      ctx.output.err(`${count} waiting run${count === 1 ? '' : 's'} could not be read, so ${count === 1 ? 'its' : 'their'} calls are not listed (exit code ${code}).`);
    }
    return code;
  },
};
