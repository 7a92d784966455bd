// The `remind` part of `npm run bench`: runs parked on an approval with reminders at 4h and 1d and an
// escalation at 2d, on Temporal's time-skipping test server with one real agent worker in this
// process (createWorker, the real model client against the bench's scripted model server) and a
// webhook receiver (node:http) in this process too. Time is skipped past the escalation; every
// notice must arrive once. Beside it, as many runs parked without reminders skipped over the same
// two days: the floor, what a parked run costs the worker while time passes with nothing due.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Duration } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../src/client/agent-client';
import { createChatModel } from '../src/model/create-chat-model';
import { defineAgent } from '../src/toolkit/define-agent';
import { createWorker } from '../src/worker/create-worker';
import { BenchModels, noopTool } from './bench-agents';
import { withDeadline } from './deadline';
import { loadAverage } from './load-average';
import { mapLimit } from './map-limit';
import { selfCpuMs } from './process-cpu';
import type { SummaryRow } from './summary';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findTestServer } = require('../scripts/temporal-cli.cjs');

const ROOT = join(__dirname, '..');
const IN_FLIGHT = 50;
/** Runs whose histories are read before and after the reminders fall due. */
const SAMPLED = 3;
/** Past the escalation (2 days from the last ask): the asks spread over the park's real time. */
const SKIP = '2 days';
/**
 * The skip in three stages, each to the next step's time counted from the skip's start (every ask
 * was before it), waiting for that step's notices before the next: time then never jumps past work
 * in flight (a workflow task or a notice's activity would time out in skipped time, which real time
 * never does), as it would in one jump of two days.
 */
const STAGES: { sleep: Duration; type: string; perRun: number }[] = [
  { sleep: '4 hours', type: 'call.reminded', perRun: 1 },
  { sleep: '20 hours', type: 'call.reminded', perRun: 2 },
  { sleep: '1 day', type: 'call.escalated', perRun: 1 },
];
/** After the last notice, how long more are listened for (a duplicate would come then). */
const QUIET_MS = 3_000;
const STEPS_PER_RUN = 3;

export const remindAgent = defineAgent({
  name: 'bench-remind',
  instructions: 'Call noop once, then answer.',
  tools: [noopTool],
  model: BenchModels.oneCall,
  permissions: { ask: ['noop'] },
  approvals: { approvers: ['alice'], remind: ['4h', '1d'], escalate: { after: '2d', to: ['group:leads'] }, groups: { leads: ['lee'] } },
});

/** The same parked run without reminders or escalation: nothing falls due while it waits. */
export const remindFloorAgent = defineAgent({
  name: 'bench-remind-floor',
  instructions: 'Call noop once, then answer.',
  tools: [noopTool],
  model: BenchModels.oneCall,
  permissions: { ask: ['noop'] },
  approvals: { approvers: ['alice'] },
});

interface Notice {
  type: string;
  workflowId: string;
  callId: string;
  reminder?: number;
}

async function startReceiver(): Promise<{ url: string; notices: Notice[]; close(): Promise<void> }> {
  const notices: Notice[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      notices.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Notice);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    notices,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(what: string, timeoutMs: number, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}

const progress = (message: string) => process.stderr.write(`[remind ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

const eventName = (type: number | null | undefined) => (temporal.api.enums.v1.EventType[type ?? 0] ?? String(type)).replace(/^EVENT_TYPE_/, '');

function countByType(events: readonly temporal.api.history.v1.IHistoryEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) counts.set(eventName(event.eventType), (counts.get(eventName(event.eventType)) ?? 0) + 1);
  return counts;
}

export async function measureReminders(options: { modelUrl: string; bundleFile: string; runs: number; timeoutMs: number }): Promise<SummaryRow[]> {
  const runs = options.runs;
  const serverPath: string | undefined = findTestServer({ root: ROOT, install: true, log: () => undefined }) ?? undefined;
  if (!serverPath) throw new Error('no time-skipping test server (temporal-test-server): run `node scripts/temporal-cli.cjs --test-server` first');
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: serverPath } } });
  const receiver = await startReceiver();
  const namespace = env.namespace ?? 'default';
  const taskQueue = `bench-remind-${Date.now().toString(36)}`;
  let stopWorker: (() => Promise<void>) | undefined;
  let client: AgentClient | undefined;
  try {
    const worker = await createWorker({
      agents: [remindAgent, remindFloorAgent],
      connection: env.nativeConnection,
      config: { taskQueue, defaultModel: BenchModels.oneCall, namespace, live: { off: true } },
      model: createChatModel({ baseURL: options.modelUrl, apiKey: 'bench', defaultModel: BenchModels.oneCall }),
      workflowBundle: { codePath: options.bundleFile },
      notifications: { webhooks: [{ url: receiver.url }] },
      log: () => undefined,
    });
    const running = worker.run();
    stopWorker = async () => {
      worker.shutdown();
      await running;
    };
    client = await AgentClient.connect({ connection: env.connection, taskQueue, namespace });
    const agents = client;
    const ofType = (ids: ReadonlySet<string>, type: string) => receiver.notices.filter((notice) => notice.type === type && ids.has(notice.workflowId));
    const settled = async (ids: readonly string[]) => {
      for (const id of ids) {
        const description = await env.client.workflow.getHandle(id).describe();
        if ((description.raw.pendingActivities ?? []).length > 0) return false;
      }
      return true;
    };

    /** Parks `runs` runs of the agent (all waiting, their waiting notices delivered and recorded). */
    const park = async (agent: string) => {
      const began = performance.now();
      const ids = await mapLimit(
        Array.from({ length: runs }, (_, index) => index),
        IN_FLIGHT,
        async (index) => (await agents.start(agent, { prompt: 'go', id: `${agent}-${index}` })).workflowId,
      );
      const idSet = new Set(ids);
      progress(`${runs} ${agent} runs started`);
      await until(`${runs} ${agent} runs waiting`, options.timeoutMs, () => ofType(idSet, 'call.waiting').length >= runs);
      await until(`the sampled runs' notices recorded`, options.timeoutMs, () => settled(ids.slice(0, SAMPLED)));
      progress(`${runs} ${agent} runs waiting`);
      return { ids, idSet, ms: performance.now() - began };
    };
    const histories = (ids: readonly string[]) => Promise.all(ids.map(async (id) => (await env.client.workflow.getHandle(id).fetchHistory()).events ?? []));

    // The reminders: runs with two reminders and an escalation each, skipped past them.
    const remind = await park(remindAgent.name);
    const before = await histories(remind.ids.slice(0, SAMPLED));
    const cpu = selfCpuMs();
    const began = performance.now();
    let skippedMs = 0;
    for (const stage of STAGES) {
      const slept = performance.now();
      await withDeadline(env.sleep(stage.sleep), options.timeoutMs, `skipping ${stage.sleep}`);
      skippedMs += performance.now() - slept;
      await until(`${stage.perRun * runs} ${stage.type} notices`, options.timeoutMs, () => ofType(remind.idSet, stage.type).length >= stage.perRun * runs);
      progress(`${stage.sleep} skipped: ${ofType(remind.idSet, stage.type).length} ${stage.type}`);
    }
    const deliveredMs = performance.now() - began;
    const cpuMs = selfCpuMs() - cpu;
    await sleep(QUIET_MS);
    await until(`the sampled runs' notices recorded`, options.timeoutMs, () => settled(remind.ids.slice(0, SAMPLED)));
    const after = await histories(remind.ids.slice(0, SAMPLED));

    // The floor: as many runs parked with nothing due, the same skip, CPU over as long a window
    // (the reminded runs, all their steps past, wait beside them as the floor's waited beside those).
    const floor = await park(remindFloorAgent.name);
    const floorBefore = await histories(floor.ids.slice(0, SAMPLED));
    const floorCpu = selfCpuMs();
    const floorBegan = performance.now();
    for (const stage of STAGES) await withDeadline(env.sleep(stage.sleep), options.timeoutMs, `skipping ${stage.sleep}`);
    const floorSkippedMs = performance.now() - floorBegan;
    await sleep(Math.max(0, deliveredMs - floorSkippedMs));
    const floorCpuMs = selfCpuMs() - floorCpu;
    const floorWallMs = performance.now() - floorBegan;
    const floorAfter = await histories(floor.ids.slice(0, SAMPLED));
    const floorAdded = floorAfter.reduce((sum, events, i) => sum + events.length - floorBefore[i]!.length, 0) / SAMPLED;

    const reminded = ofType(remind.idSet, 'call.reminded');
    const escalated = ofType(remind.idSet, 'call.escalated');
    const keys = [...reminded.map((notice) => `${notice.workflowId}/${notice.callId}/${notice.reminder}`), ...escalated.map((notice) => `${notice.workflowId}/${notice.callId}/escalated`)];
    const duplicates = keys.length - new Set(keys).size;
    const strays = receiver.notices.filter((notice) => (notice.type === 'call.reminded' || notice.type === 'call.escalated') && !remind.idSet.has(notice.workflowId)).length;
    const everyOnce = reminded.length === 2 * runs && escalated.length === runs && duplicates === 0 && strays === 0;

    const added = after.map((events, i) => events.slice(before[i]!.length));
    const perStep = added.reduce((sum, events) => sum + events.length, 0) / SAMPLED / STEPS_PER_RUN;
    const breakdown = countByType(added[0]!);
    // The first step's events in order: from the first timer fired up to the next.
    const firstFired = added[0]!.findIndex((event) => eventName(event.eventType) === 'TIMER_FIRED');
    const nextFired = added[0]!.findIndex((event, i) => i > firstFired && eventName(event.eventType) === 'TIMER_FIRED');
    const firstStep = added[0]!.slice(firstFired, nextFired < 0 ? undefined : nextFired).map((event) => eventName(event.eventType));
    const delivered = reminded.length + escalated.length;
    const perNotice = cpuMs / delivered;
    const floorPerRun = floorCpuMs / runs;
    const netPerNotice = (cpuMs - floorCpuMs) / delivered;

    const load = loadavg()[0]!;
    console.log(`\nreminders: ${runs} runs parked on an approval (remind 4h, 1d; escalate 2d), time-skipping test server, one worker and the webhook receiver in this process; ${loadAverage()}`);
    console.log(`  park: ${runs} runs with reminders ${(remind.ms / 1000).toFixed(1)} s, ${runs} without ${(floor.ms / 1000).toFixed(1)} s (${IN_FLIGHT} starts in flight)`);
    console.log(`  skip ${SKIP} in stages (${STAGES.map((stage) => stage.sleep).join(', ')}; each stage's notices awaited before the next): env.sleep took ${(skippedMs / 1000).toFixed(1)} s in all (the floor's ${(floorSkippedMs / 1000).toFixed(1)} s); every notice delivered ${(deliveredMs / 1000).toFixed(1)} s after the skip began`);
    console.log(`  notices: ${reminded.length} reminded (want ${2 * runs}), ${escalated.length} escalated (want ${runs}), ${duplicates} duplicate(s), ${strays} from floor runs`);
    console.log(`  history events per reminder or escalation: ${perStep.toFixed(2)} (${SAMPLED} runs, ${before[0]!.length} → ${after[0]!.length} events in the first); the floor's runs gained ${floorAdded.toFixed(1)} over the skip`);
    console.log(`  the first run's ${added[0]!.length} events for 2 reminders + 1 escalation: ${[...breakdown].map(([type, count]) => `${type} ${count}`).join(', ')}`);
    console.log(`  the first reminder's ${firstStep.length} events in order: ${firstStep.join(' → ')}`);
    console.log(`  worker CPU (this process) over skip-and-deliver: ${cpuMs.toFixed(0)} ms = ${perNotice.toFixed(2)} ms per notice (${delivered}); less the floor's ${floorCpuMs.toFixed(0)} ms: ${netPerNotice.toFixed(2)} ms per notice`);
    console.log(`  floor, ${runs} runs with nothing due over the same skip and as long a window: ${floorCpuMs.toFixed(0)} ms in ${(floorWallMs / 1000).toFixed(1)} s = ${floorPerRun.toFixed(3)} ms per run`);
    return [
      {
        part: 'remind',
        figure: `every reminder and escalation once, ${runs} runs (remind 4h, 1d; escalate 2d): reminded, escalated, duplicates`,
        value: `${reminded.length}, ${escalated.length}, ${duplicates + strays}`,
        target: `${2 * runs}, ${runs}, 0`,
        met: everyOnce,
        load,
      },
      { part: 'remind', figure: `history events one reminder or escalation adds (${SAMPLED} runs)`, value: perStep.toFixed(2), target: '', load },
      {
        part: 'remind',
        figure: `worker CPU per reminder or escalation delivered (webhook receiver in-process)`,
        value: `${perNotice.toFixed(2)} ms (${netPerNotice.toFixed(2)} ms over the floor)`,
        target: '',
        load,
      },
      { part: 'remind', figure: `worker CPU per parked run, ${SKIP} skipped with nothing due (floor)`, value: `${floorPerRun.toFixed(3)} ms`, target: '', load },
      { part: 'remind', figure: `park ${runs} runs on an approval, time-skipping server`, value: `${(remind.ms / 1000).toFixed(1)} s (floor's ${(floor.ms / 1000).toFixed(1)} s)`, target: '', load },
    ];
  } finally {
    await client?.close();
    await stopWorker?.();
    await receiver.close();
    await env.teardown();
  }
}
