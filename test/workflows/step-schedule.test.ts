import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { modelSchedule } from '../../src/workflows/model/model-step';
import { toolSchedule } from '../../src/workflows/tools/tool-defaults';
import { z } from 'zod';

const spec = (over: object = {}) => ({ name: 't', description: '', parameters: {}, readOnly: false, concurrencySafe: false, external: false, source: { kind: 'code' as const }, ...over });

describe('step schedules: own attempts counted by the activity, no attempt cap for Temporal', () => {
  it('a side-effecting tool: 3 own attempts of 5 minutes, start-to-close 15 s later, an hour in all, no attempt cap for Temporal', () => {
    const { options, budget } = toolSchedule(spec());
    expect(budget).toEqual({ maximumAttempts: 3, timeoutMs: 300_000 });
    expect(options).toEqual({
      startToCloseTimeout: 315_000,
      heartbeatTimeout: '30s',
      scheduleToCloseTimeout: 3_600_000,
      retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s' },
    });
  });

  it("a read-only tool gets 5; the tool's own settings win; the total is at least twice its own attempts", () => {
    expect(toolSchedule(spec({ readOnly: true })).budget.maximumAttempts).toBe(5);
    const long = toolSchedule(spec({ timeout: '1h', retry: { maximumAttempts: 4 } }));
    expect(long.budget).toEqual({ maximumAttempts: 4, timeoutMs: 3_600_000 });
    expect(long.options.scheduleToCloseTimeout).toBe(8 * 3_600_000);
    expect(toolSchedule(spec({ totalTimeout: '1d' })).options.scheduleToCloseTimeout).toBe(86_400_000);
  });

  it('a model call: 5 own attempts, 60 s heartbeat timeout, an hour in all', () => {
    const { options, budget } = modelSchedule({});
    expect(budget).toEqual({ maximumAttempts: 5, timeoutMs: 300_000 });
    expect(options).toMatchObject({ heartbeatTimeout: '60s', scheduleToCloseTimeout: 3_600_000 });
    expect(options.retry).not.toHaveProperty('maximumAttempts');
  });
});

describe('timing settings are checked when tools and agents are defined', () => {
  const input = z.object({});
  it.each([
    [{ timeout: 'soon' }, `Tool 'x': timeout "soon" is not a duration`],
    [{ totalTimeout: -1 }, `Tool 'x': totalTimeout -1 is not a duration`],
    [{ retry: { maximumAttempts: 0 } }, `Tool 'x': maximumAttempts must be a positive integer, not 0`],
  ])('a tool with %p is refused', (settings, message) => {
    expect(() => defineTool({ name: 'x', description: '', input, execute: () => 'ok', ...(settings as object) })).toThrow(message);
  });

  it('an agent whose model or approval timeout cannot be read is refused', () => {
    expect(() => defineAgent({ name: 'a', instructions: '', tools: [], model: { heartbeatTimeout: 'a while' as never } })).toThrow(`Agent 'a': model.heartbeatTimeout "a while" is not a duration`);
    expect(() => defineAgent({ name: 'a', instructions: '', tools: [], approvalTimeout: '7 fortnights' as never })).toThrow(`Agent 'a': approvalTimeout "7 fortnights" is not a duration`);
    expect(() => defineAgent({ name: 'a', instructions: '', tools: [], model: { timeout: '2 hours', totalTimeout: '1d' }, approvalTimeout: '7d' })).not.toThrow();
  });
});
