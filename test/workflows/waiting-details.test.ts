import { waitingCallDetails } from '../../src/workflows/calls/waiting-details';

describe("the Web UI's details of a waiting call", () => {
  const call = { callId: 'call_0_1', tool: 'refund', kind: 'approval' as const, input: { order_id: 'ORD-1', note: 'say "hi"' }, decision: { behavior: 'ask' as const, reason: 'refund is on the ask list' } };

  test('one command per line in a code block, every JSON in code: nothing for markdown to turn into typographic quotes', () => {
    expect(waitingCallDetails(call, 'run-1', false).split('\n')).toEqual([
      '**refund** `{"order_id":"ORD-1","note":"say \\"hi\\""}`: refund is on the ask list',
      '```sh',
      'durable-agent approve run-1 call_0_1',
      'durable-agent deny run-1 call_0_1 --reason "..."',
      '```',
      'Web UI: Send Signal `approve` with `{"callId":"call_0_1"}`, or `deny` with `{"callId":"call_0_1","reason":"..."}`',
    ]);
  });

  test('an external call names the submit command; a sub-agent call names the run that holds it', () => {
    expect(waitingCallDetails({ ...call, kind: 'external' }, 'run-1', false)).toContain("durable-agent submit run-1 call_0_1 --output '...'");
    expect(waitingCallDetails({ ...call, agent: 'refunder' }, 'run-1/call_0_0', true)).toContain('**refund** in sub-agent **refunder** (`run-1/call_0_0`)');
  });
});
