import type { ToolCallRecord } from '../../src/common/tool-call-record';
import { answerProblem } from '../../src/workflows/calls/answers';
import { move, TRANSITIONS } from '../../src/workflows/calls/phases';
import type { RunState } from '../../src/workflows/state/run-state';

const record = (phase: ToolCallRecord['phase'], more: Partial<ToolCallRecord> = {}): ToolCallRecord => ({ callId: 'c1', tool: 'refund', phase, ...more });
const stateWith = (calls: ToolCallRecord[], answeredBefore: string[] = []) =>
  ({ calls, messages: answeredBefore.map((id) => ({ role: 'tool', toolCallId: id, name: 'refund', content: 'ok', state: 'success' })) }) as unknown as RunState;

describe("a tool call's lifecycle: one table of transitions, one set of rules for answers", () => {
  test('a move the table holds changes the phase; one it does not hold is refused, naming the call, the move and both phases', () => {
    const queued = record({ name: 'queued' });
    expect(move(queued, 'ask', { name: 'awaiting_approval' }).phase).toEqual({ name: 'awaiting_approval' });
    expect(() => move(record({ name: 'settled', state: 'success' }), 'approve', { name: 'queued' })).toThrow(
      "tool call 'c1' (refund) cannot 'approve' from phase 'settled' to 'queued'",
    );
    expect(() => move(record({ name: 'queued' }), 'run', { name: 'settled', state: 'success' } as never)).toThrow("cannot 'run' from phase 'queued' to 'settled'");
  });

  test('every phase but unseen is reached by some move, and settled is left by none', () => {
    const reached = new Set(Object.values(TRANSITIONS).map((rule) => rule.to));
    expect([...reached].sort()).toEqual(['awaiting_approval', 'awaiting_external', 'checking', 'in_sub_agent', 'queued', 'running', 'settled']);
    expect(Object.values(TRANSITIONS).filter((rule) => (rule.from as readonly string[]).includes('settled'))).toEqual([]);
  });

  test.each([
    ['approval', { name: 'awaiting_approval' }, {}, false, undefined],
    ['approval', { name: 'awaiting_external' }, {}, false, "tool call 'c1' waits for an external result, not an approval: submit its result instead"],
    ['approval', { name: 'checking' }, {}, false, "tool call 'c1' is still being checked; it is not waiting for approval (yet)"],
    ['approval', { name: 'checking' }, {}, true, undefined],
    ['approval', { name: 'queued' }, {}, false, "tool call 'c1' needs no approval: the rules already decided it"],
    ['approval', { name: 'queued' }, { askedAt: 'then' }, false, "tool call 'c1' was already decided"],
    ['approval', { name: 'awaiting_approval' }, { answer: { callId: 'c1', approved: true, decidedAt: 'then' } }, false, "tool call 'c1' was already decided"],
    ['external', { name: 'awaiting_external' }, {}, false, undefined],
    ['external', { name: 'awaiting_approval' }, {}, false, "tool call 'c1' waits for approval, not an external result: approve or deny it instead"],
    ['external', { name: 'running' }, {}, false, "tool call 'c1' is running on a worker and has not asked for an external result"],
    ['external', { name: 'running' }, {}, true, undefined],
    ['external', { name: 'settled', state: 'success' }, {}, false, "a result for tool call 'c1' was already submitted"],
  ] as const)('%s for a call %j %j (early: %s): %s', (kind, phase, more, early, problem) => {
    expect(answerProblem(stateWith([record(phase as ToolCallRecord['phase'], more as Partial<ToolCallRecord>)]), kind, 'c1', early)).toBe(problem);
  });

  test('a call nobody named yet: an update is refused, a signal kept; one answered in an earlier batch is refused either way', () => {
    expect(answerProblem(stateWith([]), 'approval', 'c9')).toBe("no tool call 'c9' is waiting for approval");
    expect(answerProblem(stateWith([]), 'external', 'c9')).toBe("no tool call 'c9' is waiting for an external result");
    expect(answerProblem(stateWith([]), 'approval', 'c9', true)).toBeUndefined();
    expect(answerProblem(stateWith([], ['c9']), 'approval', 'c9', true)).toBe("tool call 'c9' was already decided");
    expect(answerProblem(stateWith([], ['c9']), 'external', 'c9', true)).toBe("a result for tool call 'c9' was already submitted");
  });
});
