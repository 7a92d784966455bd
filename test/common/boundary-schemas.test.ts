import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonByteLength, sizeProblem, utf8Length } from '../../src/common/boundary/limits';
import { parsePayload } from '../../src/common/boundary/parse-payload';
import { HANDLER_NAMES, type HandlerName } from '../../src/common/boundary/payload-schemas';

const ROOT = join(__dirname, '..', '..');
const MiB = 1024 * 1024;

function parse(handler: HandlerName, payload: unknown, maxBytes = MiB) {
  return parsePayload(handler, payload, maxBytes);
}

/** `--name NAME --input 'JSON'` of every Temporal CLI command in the text. */
function cliPayloads(text: string): [string, string][] {
  return [...text.matchAll(/--name (\w+) --input '([^']*)'/g)].map((m) => [m[1]!, m[2]!]);
}

/** The payload column of the table of signals, updates and queries in docs/approvals.md. */
function tablePayloads(text: string): [string, string][] {
  return [...text.matchAll(/^\| (?:signal|update|query) \| `(\w+)` \| `([^`]+)`/gm)].map((m) => [m[1]!, m[2]!]);
}

describe('the payload schemas', () => {
  test.each([...cliPayloads(readFileSync(join(ROOT, 'docs', 'signals.md'), 'utf8')), ...tablePayloads(readFileSync(join(ROOT, 'docs', 'approvals.md'), 'utf8'))])(
    'the documented %s payload %s parses',
    (handler, json) => {
      expect(HANDLER_NAMES).toContain(handler);
      const parsed = parse(handler as HandlerName, JSON.parse(json));
      expect(parsed).toMatchObject({ ok: true });
    },
  );

  test('the docs show a payload for every handler', () => {
    const shown = new Set([...cliPayloads(readFileSync(join(ROOT, 'docs', 'signals.md'), 'utf8')), ...tablePayloads(readFileSync(join(ROOT, 'docs', 'approvals.md'), 'utf8'))].map(([h]) => h));
    expect([...shown].sort()).toEqual([...HANDLER_NAMES].sort());
  });

  test.each<[HandlerName, unknown, string]>([
    ['approve', { callId: 5 }, 'approve: callId: Expected string, received number'],
    ['approve', { callId: 'c', remeber: 'session' }, "approve: unknown field(s) 'remeber'"],
    ['approve', { callId: 'c', input: [1] }, 'approve: input: Expected object, received array'],
    ['deny', { callId: 'c', reason: { a: 1 } }, 'deny: reason: Expected string, received object'],
    ['approveAll', 'no', 'approveAll: the payload: Expected object, received string'],
    ['approveAll', null, 'approveAll: the payload: Expected object, received null'],
    ['setGroups', { activate: 5 }, 'setGroups: activate: Expected array, received number'],
    ['setGroups', { deactivate: { x: 1 } }, 'setGroups: deactivate: Expected array, received object'],
    ['decide', { callId: 'c' }, 'decide: approved: approved is required (true or false)'],
    ['decide', { callId: 'c', approved: 'yes' }, 'decide: approved: approved must be true or false'],
    ['submitToolResult', { callId: 'c', output: 42 }, 'submitToolResult: output: Expected string, received number'],
    ['events', 'x', 'events: the payload: Expected number, received string'],
    ['conversation', -1, 'conversation: the payload: Number must be greater than or equal to 0'],
  ])('%s rejects %j with a reason', (handler, payload, reason) => {
    expect(parse(handler, payload)).toEqual({ ok: false, reason });
  });

  test('a deny reason is capped at 2,000 characters with a marker; approveAll and events take no input', () => {
    const parsed = parse('deny', { callId: 'c', reason: 'r'.repeat(5000) });
    expect(parsed.ok && (parsed.value as { reason?: string }).reason).toBe(`${'r'.repeat(2000)}\n[... output truncated: showing the first 2000 of 5000 characters ...]`);
    expect(parse('approveAll', undefined)).toEqual({ ok: true, value: {} });
    expect(parse('events', undefined)).toEqual({ ok: true, value: 0 });
  });

  test('a reason that quotes what was sent is capped: an unknown field of 1 MiB yields 2,000 characters and a marker', () => {
    const name = 'k'.repeat(MiB - 64);
    const parsed = parse('decide', { callId: 'c', approved: true, [name]: 1 });
    const total = "decide: unknown field(s) ''".length + name.length;
    expect(parsed).toEqual({ ok: false, reason: `decide: unknown field(s) '${'k'.repeat(2000 - "decide: unknown field(s) '".length)}\n[... output truncated: showing the first 2000 of ${total} characters ...]` });
  });

  test('size is measured as UTF-8 bytes of JSON and checked before the shape', () => {
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(jsonByteLength({ a: 'é' })).toBe('{"a":"é"}'.length + 1);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(sizeProblem(circular, 10)).toMatch(/cannot be measured/);
    expect(parse('decide', { callId: 'c', approved: 'not a boolean', input: { x: 'y'.repeat(2 * MiB) } })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^decide: the payload is 2 MiB, over the limit of 1 MiB \(1048576 bytes\)$/),
    });
    expect(parse('decide', { callId: 'c', approved: true, input: { x: 'y'.repeat(2000) } }, 1024)).toMatchObject({ ok: false });
  });

  test("a sub-agent's report of a waiting call it already ran with the same arguments (repeats) and of its budget's call parses; an unknown field does not", () => {
    const call = { callId: 'c1', tool: 'search', kind: 'approval', input: { q: 'x' }, since: '2026-12-04T00:00:00.000Z', workflowId: 'lead/c0', agent: 'helper' };
    const report = (extra: Record<string, unknown>) => ({ workflowId: 'lead/c0', agent: 'helper', pending: [{ ...call, ...extra }] });
    expect(parse('subAgentWaiting', report({ repeats: { callId: 'c0', preview: 'found 3' } }))).toMatchObject({ ok: true });
    expect(parse('subAgentWaiting', report({ tool: '$budget', budget: true }))).toMatchObject({ ok: true });
    expect(parse('subAgentWaiting', report({ urgent: true }))).toMatchObject({ ok: false });
  });
});
