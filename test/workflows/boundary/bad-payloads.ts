/** Payloads no handler of an agent run can use: wrong types, null, arrays, nesting, unknown fields. */
export const BAD_PAYLOADS: unknown[] = [
  null,
  5,
  'no',
  '"call_0_0"',
  true,
  [],
  ['call_0_0'],
  { callId: 5 },
  { callId: '' },
  { callId: null },
  { callId: ['a'] },
  { callId: { nested: { deeper: 'x' } } },
  { callId: 'call_x', approved: 'yes' },
  { callId: 'call_x', reason: { text: 'object reason' } },
  { callId: 'call_x', input: 'not an object' },
  { callId: 'call_x', input: [1, 2] },
  { callId: 'call_x', remember: 'forever' },
  { callId: 'call_x', output: 42 },
  { callId: 'call_x', isError: 'yes' },
  { callId: 'call_x', unknownField: 1 },
  { activate: 5 },
  { deactivate: { x: 1 } },
  { activate: [1, 2] },
  { activate: ['ok'], extra: true },
  { remember: 'session', callId: 'call_x', approved: true, output: 'mixed' },
  { callId: 'x'.repeat(10_000) },
];

/** Signals and updates of a run, by the name a sender uses. */
export const SIGNALS = ['approve', 'deny', 'approveAll', 'submitToolResult', 'setGroups'] as const;
export const UPDATES = ['decide', 'submitToolResultUpdate'] as const;
export const QUERIES_WITH_ARGUMENTS = ['events', 'conversation'] as const;
