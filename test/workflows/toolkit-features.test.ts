import type { Middleware } from '../../src/activities/middleware';
import { defineAgent } from '../../src/toolkit/define-agent';
import {
  chartTool,
  readA,
  readB,
  readC,
  readSecret,
  runSql,
  searchWeb,
  sendMail,
  stuckTool,
  timeline,
  whoAmI,
  writeA,
  writeB,
} from '../fixtures/toolkit-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { toolMessages as tools } from '../helpers/tool-messages';

const audit: { tool: string; input: unknown; result: string }[] = [];

const auditMiddleware: Middleware = {
  name: 'audit',
  async onToolCall(call, next) {
    const result = await next(call);
    audit.push({ tool: call.tool, input: call.input, result: result.content });
    return result;
  },
};

const redactMiddleware: Middleware = {
  name: 'redact',
  async onToolCall(call, next) {
    const result = await next(call);
    return { ...result, content: result.content.replace(/password=\S+/g, 'password=[redacted]') };
  },
};

const blockMiddleware: Middleware = {
  name: 'block-external-mail',
  async onToolCall(call, next) {
    const to = (call.input as { to?: string }).to;
    if (call.tool === 'send_mail' && to && !to.endsWith('@example.com')) {
      return { content: `Error: mail to ${to} is blocked by policy`, state: 'error' };
    }
    return next(call);
  },
};

const researcher = defineAgent({
  name: 'researcher',
  instructions: 'Research with the tools of the active groups.',
  tools: [searchWeb, runSql, whoAmI],
  groups: [
    { name: 'web', description: 'Search the public web.', tools: ['search_web'] },
    { name: 'database', description: 'Query the analytics database.', tools: ['run_sql'], active: false },
  ],
  metaTool: true,
});

const timed = defineAgent({ name: 'timed', instructions: 'Run the tools.', tools: [readA, readB, readC, writeA, writeB, stuckTool] });
const serial = defineAgent({ name: 'serial', instructions: 'Run the tools.', tools: [readA, readB, readC], parallel: false });

const mailer = defineAgent({
  name: 'mailer',
  instructions: 'Send mail.',
  tools: [sendMail, whoAmI, readSecret, chartTool, searchWeb, runSql],
  presets: { send_mail: { smtp_host: 'smtp.internal' } },
  toolFilter: { allow: ['*'], deny: ['run_*'] },
});

function toolNamesOffered(env: AgentTestEnv, turnIndex: number, agentPrompt: string): string[] {
  const request = env.model.requests.filter((r) => r.turnIndex === turnIndex && JSON.stringify(r.body.messages).includes(agentPrompt)).at(-1)!;
  return (request.body.tools ?? []).map((t) => t.function.name).sort();
}

describe('toolkit depth on a real Temporal server', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [researcher, timed, serial, mailer], middleware: [auditMiddleware, redactMiddleware, blockMiddleware] });
  });
  afterAll(async () => env?.stop());
  beforeEach(() => {
    timeline.length = 0;
    audit.length = 0;
  });

  test('a tool of an inactive group is not offered, and a call to it is refused', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'run_sql', arguments: { sql: 'select 1' } }] }, 'ok']);
    const result = await (await env.client.start('researcher', { prompt: 'inactive group call' })).result();
    expect(toolNamesOffered(env, 0, 'inactive group call')).toEqual(['reset_equipped_tools', 'search_web', 'who_am_i']);
    expect(tools(result.messages)[0]).toMatchObject({ content: "Error: Unauthorized tool call: 'run_sql' is not available", state: 'error' });
  });

  test('the meta tool switches groups mid-run', async () => {
    env.model.setScript([
      { toolCalls: [{ name: 'reset_equipped_tools', arguments: { to_activate: ['database'] } }] },
      { toolCalls: [{ name: 'run_sql', arguments: { sql: 'select 2' } }] },
      'switched',
    ]);
    const run = await env.client.start('researcher', { prompt: 'switch groups' });
    const result = await run.result();
    const [meta, sql] = tools(result.messages);
    expect(meta.content).toBe('The currently activated tool group(s): database.\n- database: Query the analytics database.');
    expect(sql.content).toBe('rows for select 2');
    expect(toolNamesOffered(env, 1, 'switch groups')).toEqual(['reset_equipped_tools', 'run_sql', 'who_am_i']);
    expect((await run.state()).activeGroups).toEqual(['database']);
    await maybeRecordHistory(run, 'groups-switched');
  });

  test('the meta tool errors clearly on an unknown group', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'reset_equipped_tools', arguments: { to_activate: ['payments'] } }] }, 'ok']);
    const result = await (await env.client.start('researcher', { prompt: 'unknown group' })).result();
    expect(tools(result.messages)[0].content).toBe("Error: Tool group(s) 'payments' do not exist. Available groups: web, database.");
  });

  test('two concurrent runs of one agent keep their own active groups', async () => {
    env.model.setScript((request, info) => {
      const prompt = JSON.stringify(request.messages);
      if (info.turnIndex === 0 && prompt.includes('run one')) {
        return { toolCalls: [{ name: 'reset_equipped_tools', arguments: { to_activate: ['database'] } }] };
      }
      if (info.turnIndex <= 1) return { toolCalls: [{ name: 'who_am_i', arguments: {} }] };
      return (request.tools ?? []).map((t) => t.function.name).sort().join(',');
    });
    const [one, two] = await Promise.all([
      env.client.start('researcher', { prompt: 'run one' }),
      env.client.start('researcher', { prompt: 'run two' }),
    ]);
    const [r1, r2] = await Promise.all([one.result(), two.result()]);
    expect(r1.output).toBe('reset_equipped_tools,run_sql,who_am_i');
    expect(r2.output).toBe('reset_equipped_tools,search_web,who_am_i');
  });

  test('the setGroups signal changes the groups of a running run', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    env.model.setScript(async (request, info) => {
      if (info.turnIndex === 0) {
        await gate;
        return { toolCalls: [{ name: 'who_am_i', arguments: {} }] };
      }
      return (request.tools ?? []).map((t) => t.function.name).sort().join(',');
    });
    const run = await env.client.start('researcher', { prompt: 'signal groups' });
    await run.setGroups({ activate: ['database'], deactivate: ['web'] });
    release();
    expect((await run.result()).output).toBe('reset_equipped_tools,run_sql,who_am_i');
  });

  test('presets win over the model and are absent from the schema; deny beats allow in the filter', async () => {
    env.model.setScript([
      { toolCalls: [{ name: 'send_mail', arguments: { to: 'a@example.com', subject: 'hi', smtp_host: 'evil.example.org' } }] },
      'sent',
    ]);
    const result = await (await env.client.start('mailer', { prompt: 'preset mail' })).result();
    expect(tools(result.messages)[0].content).toBe("sent 'hi' to a@example.com via smtp.internal");
    const request = env.model.requests.filter((r) => JSON.stringify(r.body.messages).includes('preset mail'))[0];
    const mail = request.body.tools!.find((t) => t.function.name === 'send_mail')!;
    expect(Object.keys((mail.function.parameters as { properties: object }).properties).sort()).toEqual(['subject', 'to']);
    expect((mail.function.parameters as { required: string[] }).required.sort()).toEqual(['subject', 'to']);
    const offered = request.body.tools!.map((t) => t.function.name);
    expect(offered).toContain('search_web');
    expect(offered).not.toContain('run_sql');
  });

  test('runtime context reaches the tool; a model-supplied userId is refused, never taken for the context', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'who_am_i', arguments: { userId: 'attacker', tenant: 'other' } }] }, { toolCalls: [{ name: 'who_am_i', arguments: {} }] }, 'ok']);
    const result = await (
      await env.client.start('mailer', { prompt: 'who', userId: 'u-42', runtime: { tenant: 'acme' } })
    ).result();
    const [refused, answered] = tools(result.messages);
    expect(refused!.content).toBe("Error: Invalid arguments for tool 'who_am_i': unknown field(s) 'userId', 'tenant'; the tool takes 'note'. Send only the fields of its schema.");
    expect(JSON.parse(answered!.content)).toEqual({ userId: 'u-42', tenant: 'acme' });
    const sent = JSON.stringify(env.model.requests.filter((r) => JSON.stringify(r.body.messages).includes('"who"'))[0].body);
    expect(sent).not.toContain('u-42');
    expect(sent).not.toContain('acme');
  });

  test('three read-only calls overlap, two unsafe calls run one after the other, results in call order', async () => {
    env.model.setScript([
      {
        toolCalls: [
          { name: 'read_a', arguments: { ms: 1000 } },
          { name: 'read_b', arguments: { ms: 1000 } },
          { name: 'read_c', arguments: { ms: 1000 } },
          { name: 'write_a', arguments: { ms: 300 } },
          { name: 'write_b', arguments: { ms: 300 } },
        ],
      },
      'all done',
    ]);
    const run = await env.client.start('timed', { prompt: 'parallel' });
    const result = await run.result();
    expect(tools(result.messages).map((t) => t.content)).toEqual(['read_a done', 'read_b done', 'read_c done', 'write_a done', 'write_b done']);
    const span = (name: string) => timeline.find((t) => t.tool === name)!;
    const reads = ['read_a', 'read_b', 'read_c'].map(span);
    // Every read started before any read ended: they ran at the same time.
    expect(Math.max(...reads.map((r) => r.start))).toBeLessThan(Math.min(...reads.map((r) => r.end)));
    // The unsafe calls ran after the reads, and one after the other.
    expect(span('write_a').start).toBeGreaterThanOrEqual(Math.max(...reads.map((r) => r.end)));
    expect(span('write_b').start).toBeGreaterThanOrEqual(span('write_a').end);
    await maybeRecordHistory(run, 'parallel-batch');
  });

  test('parallel: false runs even read-only calls one by one', async () => {
    env.model.setScript([
      { toolCalls: ['read_a', 'read_b', 'read_c'].map((name) => ({ name, arguments: { ms: 200 } })) },
      'done',
    ]);
    await (await env.client.start('serial', { prompt: 'serial' })).result();
    const [a, b, c] = ['read_a', 'read_b', 'read_c'].map((name) => timeline.find((t) => t.tool === name)!);
    expect(b.start).toBeGreaterThanOrEqual(a.end);
    expect(c.start).toBeGreaterThanOrEqual(b.end);
  });

  test('middleware: audit records every call, redaction hides a secret, a policy can stop a call', async () => {
    env.model.setScript([
      {
        toolCalls: [
          { name: 'read_config', arguments: {} },
          { name: 'send_mail', arguments: { to: 'x@evil.example.org', subject: 's' } },
        ],
      },
      'done',
    ]);
    const result = await (await env.client.start('mailer', { prompt: 'middleware' })).result();
    const [config, mail] = tools(result.messages);
    expect(config.content).toBe('host=db.internal password=[redacted] port=5432');
    expect(mail).toMatchObject({ content: 'Error: mail to x@evil.example.org is blocked by policy', state: 'error' });
    expect(JSON.stringify(env.model.requests.at(-1)!.body)).not.toContain('hunter2');
    expect(audit.map((a) => a.tool)).toEqual(['read_config', 'send_mail']);
    // The audit middleware is outermost: it saw the redacted text and the policy's answer.
    expect(audit[0].result).toContain('[redacted]');
  });

  test('rich results: text reaches the model, json and image blocks stay in the run', async () => {
    env.model.setScript([{ toolCalls: [{ name: 'make_chart', arguments: { values: [3, 9, 4] } }] }, 'charted']);
    const result = await (await env.client.start('mailer', { prompt: 'chart' })).result();
    const chart = tools(result.messages)[0];
    expect(chart.content).toBe('Chart of 3 values, max 9.');
    expect(chart.blocks).toEqual([
      { type: 'text', text: 'Chart of 3 values, max 9.' },
      { type: 'json', data: { values: [3, 9, 4] } },
      { type: 'image', url: 'https://charts.example/c/123.png', mimeType: 'image/png' },
    ]);
    const sent = JSON.stringify(env.model.requests.at(-1)!.body);
    expect(sent).not.toContain('charts.example');
  });

  test("a per-tool timeout and retry policy: running past its timeout is the call's own failure; after its attempts the model gets an error result", async () => {
    env.model.setScript([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, 'gave up']);
    const run = await env.client.start('timed', { prompt: 'stuck' });
    const result = await run.result();
    expect(tools(result.messages)[0]).toMatchObject({ state: 'error' });
    expect(tools(result.messages)[0].content).toBe("Error: Tool execution failed: Tool 'stuck' did not finish within its timeout of 1s [2 of 2 attempts failed]");
    const history = (await run.handle.fetchHistory()).events ?? [];
    const failed = history.find((e) => e.activityTaskFailedEventAttributes);
    expect(failed?.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo).toMatchObject({ type: 'Tool.Timeout', nonRetryable: true });
    const started = history.find((e) => e.activityTaskStartedEventAttributes && e.activityTaskStartedEventAttributes.attempt === 2);
    expect(started).toBeDefined();
  });
});
