import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webApi } from '@slack/bolt';
import { editModal, readEdit } from '../../src/slack/edit-modal';
import { parseInteraction } from '../../src/slack/interaction-payloads';
import { MessageStore } from '../../src/slack/message-store';
import { ReplayGuard } from '../../src/slack/replay-guard';
import { slackConfigFromEnv } from '../../src/slack/slack-config';
import { identityOf } from '../../src/slack/slack-identity';
import { startFakeSlackApi } from './fake-slack-api';
import { interactionBody } from './slack-signing';

const SECRET_TOKEN = 'xoxb-9999-8888-verysecret';

describe('the Slack endpoint, piece by piece', () => {
  test('the config comes from the environment, flags over it; a mistake names the field and never echoes a secret', () => {
    const env = {
      AGENT_SLACK_BOT_TOKEN: SECRET_TOKEN,
      AGENT_SLACK_SIGNING_SECRET: 'signing-secret-0123456789',
      AGENT_SLACK_NOTICE_SECRET: 'notice-secret-0123456789',
      AGENT_SLACK_CHANNEL: 'C0ONE',
      AGENT_SLACK_USERS: 'U0ALICE=alice@example.com, U0BOB=bob',
    };
    expect(slackConfigFromEnv({})).toBeUndefined();
    const config = slackConfigFromEnv(env, { channel: 'C0TWO' })!;
    expect(config).toMatchObject({ channel: 'C0TWO', users: { U0ALICE: 'alice@example.com', U0BOB: 'bob' }, identityFromEmail: false, basePath: '/slack', stateFile: '.durable-agent/slack-messages.json' });
    expect(slackConfigFromEnv({ ...env, AGENT_SLACK_USERS: '{"U0CAROL":"carol"}' })!.users).toEqual({ U0CAROL: 'carol' });

    const problems = (given: Record<string, string>) => {
      try {
        slackConfigFromEnv(given);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    const short = problems({ ...env, AGENT_SLACK_SIGNING_SECRET: 'short-secret', AGENT_SLACK_USERS: 'alice=alice' });
    expect(short).toMatch(/signingSecret: signingSecret must be/);
    expect(short).toMatch(/users\.alice: a Slack user id looks like U0123ABCD/);
    expect(short).not.toContain('short-secret');
    const badToken = problems({ ...env, AGENT_SLACK_BOT_TOKEN: 'not-a-token-but-a-secret' });
    expect(badToken).toMatch(/botToken must be a Slack token/);
    expect(badToken).not.toContain('not-a-token-but-a-secret');
    expect(problems({ ...env, AGENT_SLACK_CHANNEL: '' })).toMatch(/channel: Required/);
  });

  test("an unmapped user's identity is their profile's email only when enabled, and only of the allowed domains", async () => {
    const api = await startFakeSlackApi(SECRET_TOKEN, { U0DORA: 'Dora@Example.com', U0EVE: 'eve@elsewhere.org' });
    try {
      const client = new webApi.WebClient(SECRET_TOKEN, { slackApiUrl: api.url, retryConfig: { retries: 0 } });
      const base = { users: { U0ALICE: 'alice' }, identityFromEmail: false, emailDomains: [] as string[] };
      expect(await identityOf('U0ALICE', base, client)).toBe('alice');
      expect(await identityOf('U0DORA', base, client)).toBeUndefined();
      expect(api.callsOf('users.info')).toHaveLength(0);
      const byEmail = { ...base, identityFromEmail: true, emailDomains: ['example.com'] };
      expect(await identityOf('U0DORA', byEmail, client)).toBe('dora@example.com');
      expect(await identityOf('U0EVE', byEmail, client)).toBeUndefined();
      expect(await identityOf('U0NOBODY', byEmail, client)).toBeUndefined();
      expect(await identityOf('U0EVE', { ...byEmail, emailDomains: [] }, client)).toBe('eve@elsewhere.org');
    } finally {
      await api.close();
    }
  });

  test('the modal has a field per leaf of the schema (selects for enums and booleans, JSON for arrays) and reads them back by it', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['fast', 'slow'] },
        dry: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } }, required: ['city'] },
      },
      required: ['mode'],
    };
    const view = editModal('ship', schema, { mode: 'fast', dry: false, tags: ['a'], address: { city: 'Oslo', zip: 150 } }, '{}');
    const inputs = (view.blocks as Array<Record<string, any>>).filter((block) => block.type === 'input');
    expect(inputs.map((block) => [block.block_id, block.element.type, block.optional])).toEqual([
      ['arg:mode', 'static_select', false],
      ['arg:dry', 'static_select', true],
      ['arg:tags', 'plain_text_input', true],
      ['arg:address.city', 'plain_text_input', true],
      ['arg:address.zip', 'plain_text_input', true],
    ]);
    expect(inputs[0]!.element.initial_option).toEqual({ text: { type: 'plain_text', text: 'fast' }, value: 'fast' });

    const values = {
      'arg:mode': { value: { selected_option: { value: 'slow' } } },
      'arg:dry': { value: { selected_option: { value: 'true' } } },
      'arg:tags': { value: { value: '["x","y"]' } },
      'arg:address.city': { value: { value: 'Bergen' } },
      'arg:address.zip': { value: { value: '5003' } },
    };
    expect(readEdit(schema, values)).toEqual({ ok: true, input: { mode: 'slow', dry: true, tags: ['x', 'y'], address: { city: 'Bergen', zip: 5003 } } });
    expect(readEdit(schema, { ...values, 'arg:tags': { value: { value: '[x' } }, 'arg:address.city': { value: { value: '' } } })).toEqual({
      ok: false,
      errors: { 'arg:tags': expect.stringMatching(/^not JSON/), 'arg:address.city': 'is required' },
    });
    // A schema that is not an object of fields: the arguments as JSON.
    const raw = editModal('echo', { type: 'string' }, 'hello', '{}');
    expect((raw.blocks as Array<Record<string, any>>)[1]!.block_id).toBe('raw_json');
    expect(readEdit({ type: 'object' }, { raw_json: { value: { value: '{"a":1}' } } })).toEqual({ ok: true, input: { a: 1 } });
    expect(readEdit({ type: 'object' }, { raw_json: { value: { value: '[1]' } } })).toEqual({ ok: false, errors: { raw_json: 'the arguments must be a JSON object' } });
  });

  test('a payload that is not an interaction this endpoint answers is refused with its reason, never thrown', () => {
    const form = 'application/x-www-form-urlencoded';
    expect(parseInteraction('{}', 'application/json')).toEqual({ ok: false, message: expect.stringMatching(/form-urlencoded/) });
    expect(parseInteraction('nothing=here', form)).toEqual({ ok: false, message: 'the body has no payload' });
    expect(parseInteraction('payload=%7Bnot', form)).toEqual({ ok: false, message: expect.stringMatching(/not JSON/) });
    expect(parseInteraction(interactionBody({ type: 'shortcut', user: { id: 'U0A' } }), form).ok).toBe(false);
    const click = { type: 'block_actions', user: { id: 'U0A' }, trigger_id: 't', actions: [{ action_id: 'durable_agent_approve', value: '{"w":"run","c":"call"}' }] };
    const parsed = parseInteraction(interactionBody(click), form);
    expect(parsed).toMatchObject({ ok: true, interaction: { type: 'block_actions', actions: [{ value: { w: 'run', c: 'call' } }] } });
    expect(parseInteraction(interactionBody({ ...click, actions: [{ action_id: 'something_else', value: '{}' }] }), form).ok).toBe(false);
    expect(parseInteraction('ssl_check=1&token=x', form)).toEqual({ ok: true, sslCheck: true });
  });

  test('the message file survives a restart, refuses a file that is not its own, and a replayed signature is refused within its window', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'durable-agent-slack-store-'));
    try {
      const file = join(dir, 'deep', 'messages.json');
      const store = await MessageStore.open(file);
      const message = { workflowId: 'run-1', callId: 'call-1', tool: 'refund', agent: 'a', channel: 'C0', ts: '1.2', argumentsDigest: 'a'.repeat(64), postedAt: new Date().toISOString(), threaded: [] };
      await Promise.all([store.put(message), store.put({ ...message, callId: 'call-2' })]);
      const reopened = await MessageStore.open(file);
      expect(reopened.get('run-1', 'call-1')).toEqual(message);
      expect(reopened.open().map((one) => one.callId).sort()).toEqual(['call-1', 'call-2']);
      expect(JSON.parse(await readFile(file, 'utf8')).v).toBe(1);
      await writeFile(join(dir, 'other.json'), '{"something":"else"}');
      await expect(MessageStore.open(join(dir, 'other.json'))).rejects.toThrow(/is not the Slack endpoint's message file/);

      const guard = new ReplayGuard();
      const now = Date.now();
      const ts = Math.floor(now / 1000);
      expect(guard.refusal('v0=aa', ts, now)).toBeUndefined();
      expect(guard.refusal('v0=aa', ts, now)).toMatch(/replay/);
      expect(guard.refusal('v0=bb', ts + 3600, now)).toMatch(/future/);
      expect(guard.refusal('v0=aa', ts, now + 6 * 60_000)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
