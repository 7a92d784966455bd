import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isTerminal } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { AgentRun } from '../client/agent-run';
import type { Elicit } from './approval-elicitation';
import type { FollowOptions } from './follow-agent-call';
import { TASK_POLL_INTERVAL_MS } from './run-task';
import type { RunTaskStore } from './run-task-store';

/** About a minute of failed reads in a row. */
const MAX_UNREAD_POLLS = 60;

/**
 * For as long as the connection that created a task lasts: a `notifications/tasks/status` on each
 * change of the run's status (or of what it waits for), and, when the client can answer
 * elicitations, the run's approvals asked as elicitations. A client that reconnects polls
 * (`tasks/get`, `tasks/result`); the run goes on either way.
 */
export function followTask(options: {
  server: Server;
  store: RunTaskStore;
  run: AgentRun;
  signal: AbortSignal;
  elicit?: Elicit;
  follow: (run: AgentRun, options: FollowOptions) => Promise<unknown>;
}): void {
  const { server, store, run, signal } = options;
  const log = (data: string) => server.sendLoggingMessage({ level: 'warning', logger: 'durable-agent', data });
  if (options.elicit) void options.follow(run, { elicit: options.elicit, log, signal }).catch(() => undefined);
  void (async () => {
    let told = '';
    let unread = 0;
    while (!signal.aborted) {
      const task = await store.getTask(run.workflowId).catch(() => null);
      if (!task) {
        // A read that failed (a busy server, a worker between two runs) is tried again; a run gone for good ends the notifications.
        if (++unread >= MAX_UNREAD_POLLS) return;
        await sleep(TASK_POLL_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
        continue;
      }
      unread = 0;
      const now = `${task.status}\n${task.statusMessage ?? ''}`;
      if (now !== told) {
        told = now;
        await server.notification({ method: 'notifications/tasks/status', params: task }).catch(() => undefined);
      }
      if (isTerminal(task.status)) return;
      await sleep(TASK_POLL_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
    }
  })();
}
