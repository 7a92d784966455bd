import type { IncomingMessage } from 'node:http';
import { parseNotificationConfig, notificationConfigFromEnv } from '../../src/activities/notify/webhook-config';
import { html } from '../../src/inbox/html';
import { CsrfTokens, parseInboxAuth, visitorOf } from '../../src/inbox/inbox-auth';
import { itemPage } from '../../src/inbox/item-page';
import { readFields, schemaFields } from '../../src/inbox/schema-form';
import { listFiltersSchema } from '../../src/inbox/list-filters';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('the inbox: escaping, sign-in and form pieces', () => {
  test('everything from a run is escaped: arguments, reasons, conversation', () => {
    const evil = '<script>alert(1)</script>"\'';
    const page = itemPage({
      holderId: 'run-1',
      callId: 'call_0_0',
      open: {
        call: { workflowId: 'run-1', agent: evil, top: { workflowId: evil, agent: evil }, callId: 'call_0_0', tool: evil, kind: 'approval', input: { note: evil }, preview: evil, reason: evil, since: new Date().toISOString() },
        schema: { type: 'object', properties: { note: { type: 'string', description: evil } } },
      },
      conversation: { messages: [{ role: 'user', content: evil }], index: 0, pages: 1, calls: {} },
      identity: evil,
      csrf: 'token',
      webUiLink: 'http://ui/workflows/run-1',
    }).text;
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;');
    expect(html`${'<b>'}`.text).toBe('&lt;b&gt;');
  });

  test('fields are made from the schema and read back by it', () => {
    const schema = {
      type: 'object',
      required: ['order_id', 'amount'],
      properties: { order_id: { type: 'string' }, amount: { type: 'number' }, rush: { type: 'boolean' }, size: { enum: ['S', 'M'] }, tags: { type: 'array' }, to: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    const fields = schemaFields(schema, { order_id: 'A', amount: 3, size: 'M', tags: ['x'], to: { city: 'Oslo' } }).text;
    expect(fields).toContain('name="arg:order_id" value="A"');
    expect(fields).toContain('<option value="M" selected>M</option>');
    expect(fields).toContain('name="arg:to.city" value="Oslo"');
    const read = readFields(schema, new URLSearchParams({ 'arg:order_id': 'B', 'arg:amount': '4.5', 'arg:rush': 'true', 'arg:size': 'S', 'arg:tags': '["y"]', 'arg:to.city': 'Bergen' }));
    expect(read).toEqual({ input: { order_id: 'B', amount: 4.5, rush: true, size: 'S', tags: ['y'], to: { city: 'Bergen' } }, errors: {} });
    expect(readFields(schema, new URLSearchParams({ 'arg:tags': '[', 'arg:bogus': 'x' })).errors).toEqual({ tags: expect.stringContaining('not JSON'), bogus: 'not a field of this tool' });
  });

  test('tokens, basic auth and the identity header; CSRF tokens are bound to the credential', () => {
    const auth = parseInboxAuth({ tokens: ['alice=alice-secret-0123456789'], basicAuth: ['bob:bob-password'], identityHeader: 'X-Forwarded-User' });
    expect(visitorOf(request({ authorization: 'Bearer alice-secret-0123456789' }), auth)?.identity).toBe('alice');
    expect(visitorOf(request({ cookie: 'x=1; inbox_token=alice-secret-0123456789' }), auth)?.identity).toBe('alice');
    expect(visitorOf(request({ authorization: `Basic ${Buffer.from('bob:bob-password').toString('base64')}` }), auth)?.identity).toBe('bob');
    expect(visitorOf(request({ authorization: `Basic ${Buffer.from('bob:wrong-password').toString('base64')}` }), auth)).toBeUndefined();
    expect(visitorOf(request({ 'x-forwarded-user': 'mallory' }), auth)).toBeUndefined();
    expect(visitorOf(request({ authorization: 'Bearer alice-secret-0123456789', 'x-forwarded-user': 'carol@example.com' }), auth)?.identity).toBe('carol@example.com');
    const csrf = new CsrfTokens();
    const alice = visitorOf(request({ authorization: 'Bearer alice-secret-0123456789' }), auth)!;
    const bob = visitorOf(request({ authorization: `Basic ${Buffer.from('bob:bob-password').toString('base64')}` }), auth)!;
    expect(csrf.check(alice, csrf.tokenFor(alice))).toBe(true);
    expect(csrf.check(bob, csrf.tokenFor(alice))).toBe(false);
    expect(csrf.check(alice, undefined)).toBe(false);
    expect(() => parseInboxAuth({ tokens: [], basicAuth: ['nopassword'] })).toThrow('--basic-auth: give USER:PASSWORD');
  });

  test('query strings and webhook configuration are parsed with clear errors', () => {
    expect(listFiltersSchema.safeParse({ kind: 'approval', age: '1d' }).success).toBe(true);
    expect(listFiltersSchema.safeParse({ kind: 'sometimes' }).success).toBe(false);
    expect(listFiltersSchema.safeParse({ sort: 'x' }).success).toBe(false);
    expect(() => parseNotificationConfig({ webhooks: [{ url: 'ftp://x' }] })).toThrow('webhooks.0.url: url must be an http(s) URL');
    expect(() => parseNotificationConfig({ webhooks: [{ url: 'http://x', secret: 'short' }] })).toThrow('secret must be at least 16 characters');
    expect(() => parseNotificationConfig({ webhooks: [{ url: 'http://x', sekret: 'a' }] })).toThrow("Unrecognized key(s) in object: 'sekret'");
    expect(() => notificationConfigFromEnv({ AGENT_WEBHOOKS: '[{' })).toThrow('AGENT_WEBHOOKS is not JSON');
    expect(notificationConfigFromEnv({})).toBeUndefined();
    expect(notificationConfigFromEnv({ AGENT_WEBHOOKS: '[{"url":"https://hooks.example.com/a","format":"slack"}]', AGENT_INBOX_URL: 'https://inbox.example.com' })).toEqual({
      webhooks: [{ url: 'https://hooks.example.com/a', format: 'slack', includeArguments: false }],
      inboxUrl: 'https://inbox.example.com',
    });
  });
});
