import { HandlerError } from 'nexus-rpc';
import { z } from 'zod';
import { RUNTIME_FEATURES } from '../../src/common/runtime-features';
import { parseOperationInput } from '../../src/nexus/operation-input';
import { agentNexusService, DEFAULT_AGENT_NEXUS_SERVICE } from '../../src/nexus/service-definition';
import { AgentRegistry } from '../../src/toolkit/agent-registry';
import { defineAgent } from '../../src/toolkit/define-agent';
import { nexusTool } from '../../src/toolkit/nexus-tool';
import { readWorkerConfig } from '../../src/worker/config';
import { createWorker } from '../../src/worker/create-worker';

describe("the agents' Nexus service: its definition and the operation's input", () => {
  test('one operation per agent, named after it, in the service the worker names', () => {
    const typed = defineAgent({ name: 'typed', instructions: 'x', output: z.object({ n: z.number() }) });
    const service = agentNexusService(['plain', typed], { service: 'team-a-agents' });
    expect(service.name).toBe('team-a-agents');
    expect(Object.keys(service.operations)).toEqual(['plain', 'typed']);
    expect(service.operations.typed.name).toBe('typed');
    expect(agentNexusService(['plain']).name).toBe(DEFAULT_AGENT_NEXUS_SERVICE);
    expect(() => agentNexusService(['twice', 'twice'])).toThrow("agent 'twice' is named twice");
  });

  test('AGENT_NEXUS_SERVICE names the service the worker serves; unset or blank, none', () => {
    expect(readWorkerConfig({ AGENT_NEXUS_SERVICE: ' support-agents ' }).nexusService).toBe('support-agents');
    expect(readWorkerConfig({ AGENT_NEXUS_SERVICE: ' ' })).not.toHaveProperty('nexusService');
    expect(readWorkerConfig({})).not.toHaveProperty('nexusService');
  });

  test('createWorker refuses a `nexus` option it cannot read, before it connects or starts anything', async () => {
    for (const nexus of [{ service: '' }, { service: 7 }, 'yes']) {
      await expect(createWorker({ agents: [], nexus: nexus as never, model: {} as never })).rejects.toThrow('nexus must be true, false or { service: <a non-empty name> }.');
    }
  });

  test('a good input becomes the start options AgentClient.start takes', () => {
    expect(parseOperationInput('a', { prompt: 'hi', userId: 'u', runtime: { tenant: 't' }, budget: { cost: 2 }, maxIters: 3, id: 'run-1' })).toEqual({
      prompt: 'hi',
      userId: 'u',
      runtime: { tenant: 't' },
      budget: { cost: 2 },
      maxIters: 3,
      id: 'run-1',
    });
  });

  test.each([
    [{}, 'prompt is required'],
    [{ prompt: '  ' }, 'prompt must not be empty'],
    [{ prompt: 'x', maxIters: 1.5 }, 'maxIters must be a whole number'],
    [{ prompt: 'x', budget: { tokens: -1 } }, 'budget.tokens'],
    [{ prompt: 'x', runtime: 'me' }, 'runtime must be an object'],
    [{ prompt: 'x', agent: 'other' }, 'unknown field agent'],
    ['just text', 'input: Expected object, received string'],
  ])('%j is a bad request naming what is wrong', (input, problem) => {
    let thrown: unknown;
    try {
      parseOperationInput('greeter', input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HandlerError);
    expect((thrown as HandlerError).type).toBe('BAD_REQUEST');
    expect((thrown as HandlerError).retryable).toBe(false);
    expect((thrown as HandlerError).message).toContain("Invalid input for agent 'greeter'");
    expect((thrown as HandlerError).message).toContain(problem);
  });
});

describe('nexusTool', () => {
  const input = z.object({ id: z.string() });

  test('its spec carries where the operation is, and its agent takes the nexus-tools feature (others do not)', () => {
    const service = { name: 'orders', operations: { status: { name: 'order-status' } } };
    const output = z.object({ state: z.enum(['open', 'shipped']), eta: z.string().default('unknown') });
    const tool = nexusTool({ name: 'status', description: 'd', endpoint: 'ep', service, operation: 'status', input, output, timeout: '2 minutes', permission: 'ask' });
    const registry = new AgentRegistry([
      defineAgent({ name: 'with-nexus', instructions: 'x', tools: [tool] }),
      defineAgent({ name: 'without', instructions: 'x' }),
    ]);
    const withNexus = registry.get('with-nexus')!.descriptor;
    expect(withNexus.tools.find((spec) => spec.name === 'status')).toMatchObject({
      permission: 'ask',
      external: false,
      nexus: { endpoint: 'ep', service: 'orders', operation: 'order-status', timeout: '2 minutes', checksOutput: true },
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
    });
    expect(withNexus.runtimeFeatures).toContain(RUNTIME_FEATURES.nexusTools);
    // The worker's side of the output check: the parsed value (defaults filled in), or each problem.
    const registered = registry.get('with-nexus')!.toolkit.get('status')!;
    expect(registered.checkOutput!({ state: 'open' })).toEqual({ ok: true, value: { state: 'open', eta: 'unknown' } });
    expect(registered.checkOutput!({ state: 'lost' })).toEqual({ ok: false, problems: ["/state: Invalid enum value. Expected 'open' | 'shipped', received 'lost'"] });
    expect(registered.checkOutput!('text')).toEqual({ ok: false, problems: ['the result: Expected object, received string'] });
    expect(registered.execute).toBeUndefined();
    expect(registry.get('without')!.descriptor.runtimeFeatures).not.toContain(RUNTIME_FEATURES.nexusTools);
  });

  test('refuses what cannot work, when it is defined', () => {
    expect(() => nexusTool({ name: 'bad name', description: 'd', endpoint: 'ep', service: 's', operation: 'o', input })).toThrow("Invalid tool name 'bad name'");
    expect(() => nexusTool({ name: 't', description: 'd', endpoint: '', service: 's', operation: 'o', input })).toThrow("nexusTool 't': endpoint must be a name");
    expect(() => nexusTool({ name: 't', description: 'd', endpoint: 'ep', service: {}, operation: 'o', input })).toThrow("nexusTool 't': service must be a name");
    expect(() => nexusTool({ name: 't', description: 'd', endpoint: 'ep', service: 's', operation: 'o', input, timeout: 'soon' as never })).toThrow("nexusTool 't': timeout \"soon\" is not a duration");
  });
});
