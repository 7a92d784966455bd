import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { importGraph } from './import-graph';
import { effectWrites, roomLevels, sliceWrites, wholeStateTakers, WORKFLOW_ROOMS, workflowRoomOf, workflowRoomViolations } from './workflow-rooms';

const SRC = join(__dirname, '..', '..', 'src');

function sources(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [file, text] of sources(path)) found.set(file, text);
    else if (name.endsWith('.ts')) found.set(relative(SRC, path).replace(/\.ts$/, ''), readFileSync(path, 'utf8'));
  }
  return found;
}

describe('the rooms of the workflow code (src/workflows/)', () => {
  const imports = importGraph(SRC);
  const files = sources(join(SRC, 'workflows'));

  test('every file lies in a room with a rule, and every room but the root has an index door', () => {
    const rooms = new Set([...files.keys()].map((file) => workflowRoomOf(file)!));
    expect([...rooms].filter((room) => !(room in WORKFLOW_ROOMS))).toEqual([]);
    expect([...rooms].sort()).toEqual(Object.keys(WORKFLOW_ROOMS).sort());
    expect([...rooms].filter((room) => room !== '(root)' && room !== 'quota' && !files.has(`workflows/${room}/index`))).toEqual([]);
    expect([...files.keys()].filter((file) => workflowRoomOf(file) === '(root)').sort()).toEqual(['workflows/index']);
  });

  test('each room imports only the rooms below it, and only through their doors', () => {
    expect(workflowRoomViolations(imports)).toEqual([]);
    expect(
      workflowRoomViolations([
        { from: 'workflows/calls/book', specifier: '../tools', target: 'workflows/tools/index', typeOnly: true },
        { from: 'workflows/run/react-loop', specifier: '../model/model-step', target: 'workflows/model/model-step', typeOnly: false },
        { from: 'cli/agent-tool-listing', specifier: '../workflows/toolset/tool-visibility', target: 'workflows/toolset/tool-visibility', typeOnly: false },
        { from: 'workflows/tools/tool-step', specifier: '../calls', target: 'workflows/calls/index', typeOnly: false },
      ]),
    ).toEqual([
      'workflows/calls/book → workflows/tools/index: workflows/calls/ does not import workflows/tools/',
      'workflows/run/react-loop → workflows/model/model-step: import workflows/model (its index), not its insides',
      'cli/agent-tool-listing → workflows/toolset/tool-visibility: import workflows/toolset (its index), not its insides',
    ]);
  });

  test('about a dozen rooms on at most 7 levels, with no circle', () => {
    const levels = roomLevels(Object.fromEntries(Object.entries(WORKFLOW_ROOMS).filter(([room]) => room !== '(root)')));
    expect(levels.size).toBeGreaterThanOrEqual(10);
    expect(levels.size).toBeLessThanOrEqual(14);
    expect(Math.max(...levels.values())).toBeLessThanOrEqual(7);
    expect(() => roomLevels({ a: ['b'], b: ['a'] })).toThrow('a circle of rooms: a → b → a');
  });

  test('only effects/ writes outward: no event, status, step, details, memo, search attribute or notice is written elsewhere', () => {
    expect(effectWrites(files)).toEqual([]);
    expect(
      effectWrites(
        new Map([
          ['workflows/tools/run-on-worker', "import { upsertMemo } from '@temporalio/workflow';\n  recordEvent(state, body, at);\n  // setStatus(state) in a comment\n  apply(state, { events: [body] });"],
          ['workflows/effects/apply', 'recordEvent(state, body, at);'],
        ]),
      ),
    ).toEqual(["workflows/tools/run-on-worker:1: import { upsertMemo } from '@temporalio/workflow';", 'workflows/tools/run-on-worker:2: recordEvent(state, body, at);']);
  });

  test('each room writes only its slice of the run state, and only run/ takes the state whole', () => {
    expect(sliceWrites(files)).toEqual([]);
    expect(wholeStateTakers(files)).toEqual([]);
    expect(
      sliceWrites(
        new Map([
          ['workflows/tools/sub-agent', 'state.usage = addUsage(state.usage, usage);\nstate.subAgents.push(entry);\nif (state.cost === 0) {}'],
          ['workflows/spend/charge', 'state.cost += cost;'],
          ['workflows/run/react-loop', 'state.messages.push(message);'],
        ]),
      ),
    ).toEqual([
      'workflows/tools/sub-agent:1: state.usage = (the spend slice: spend)',
      'workflows/tools/sub-agent:2: state.subAgents.push( (the spend slice: spend)',
    ]);
    expect(wholeStateTakers(new Map([['workflows/calls/views', 'export function f(state: RunState) {}']]))).toEqual(['workflows/calls/views:1: export function f(state: RunState) {}']);
  });
});
