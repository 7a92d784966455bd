import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { importGraph, roomOf } from './import-graph';
import { ALLOWED_ROOMS, callRecordWrites, callsDoorViolations, circlesIn, importViolations } from './import-rules';

const SRC = join(__dirname, '..', '..', 'src');

describe('the rooms of src/ and the application floor', () => {
  const imports = importGraph(SRC);

  test('reads the sources (static, require and import() imports)', () => {
    expect(imports.length).toBeGreaterThan(500);
    expect(imports.some((i) => i.from === 'cli/run-cli' && i.target === 'cli/commands/worker')).toBe(true);
    expect(imports.some((i) => i.from === 'cli/agents-source' && i.target === 'demo/agents')).toBe(true);
  });

  test('every import keeps the rules: nothing below the application floor imports cli/ or demo/, each room imports only lower rooms', () => {
    expect(importViolations(imports)).toEqual([]);
  });

  test('every room of src/ has its rule', () => {
    const rooms = new Set(imports.map((i) => roomOf(i.from)));
    expect([...rooms].filter((room) => !(room in ALLOWED_ROOMS) && room !== 'cli' && room !== 'demo')).toEqual([]);
  });

  test('the rules catch a lower room reaching up', () => {
    const broken = [
      { from: 'worker/load-worker-agents', specifier: '../demo/agents', target: 'demo/agents', typeOnly: false },
      { from: 'mcp-server/follow-agent-call', specifier: '../cli/format-event', target: 'cli/format-event', typeOnly: true },
      { from: 'client/agent-client', specifier: '../worker/create-worker', target: 'worker/create-worker', typeOnly: false },
      { from: 'workflows/tools/tool-step', specifier: 'node:fs', typeOnly: false },
      { from: 'workflows/tools/tool-step', specifier: '../telemetry/tracing', target: 'telemetry/tracing', typeOnly: false },
      { from: 'common/glob', specifier: 'node:path', typeOnly: false },
      { from: 'entry', specifier: './cli/run-cli', target: 'cli/run-cli', typeOnly: false },
    ];
    expect(importViolations(broken)).toEqual([
      'worker/load-worker-agents → demo/agents: only the application floor (cli, demo) imports demo/',
      'mcp-server/follow-agent-call → cli/format-event: only the application floor (cli, demo) imports cli/',
      'client/agent-client → worker/create-worker: client/ does not import worker/ at run time',
      "workflows/tools/tool-step → node:fs: the workflow sandbox loads only Temporal's workflow packages and zod",
      'workflows/tools/tool-step → telemetry/tracing: not sandbox-safe telemetry',
      'common/glob → node:path: common/ loads no Node or worker package',
      'entry → cli/run-cli: only the application floor (cli, demo) imports cli/',
    ]);
  });

  test('workflows/calls/ owns the tool-call records: the rest of the workflow imports its door only and writes no record', () => {
    expect(callsDoorViolations(imports)).toEqual([]);
    expect(callRecordWrites(sources(SRC))).toEqual([]);
    expect(callsDoorViolations([{ from: 'workflows/tools/tool-step', specifier: './calls/phases', target: 'workflows/calls/phases', typeOnly: false }])).toHaveLength(1);
    expect(
      callRecordWrites(new Map([['workflows/tools/tool-step', "const x = 1;\nrecord.phase = { name: 'queued' };\nif (record.phase === y) {}"]])),
    ).toEqual(["workflows/tools/tool-step:2: record.phase = { name: 'queued' };"]);
  });

  test('the workflow code has no circles of imports (type-only ones included)', () => {
    expect(circlesIn(imports, 'workflows')).toEqual([]);
    const circle = [
      { from: 'workflows/a', specifier: './b', target: 'workflows/b', typeOnly: true },
      { from: 'workflows/b', specifier: './a', target: 'workflows/a', typeOnly: false },
    ];
    expect(circlesIn(circle, 'workflows')).toEqual([['workflows/a', 'workflows/b']]);
  });
});

function sources(src: string, dir = src): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [file, text] of sources(src, path)) found.set(file, text);
    else if (name.endsWith('.ts')) found.set(relative(src, path).replace(/\.ts$/, ''), readFileSync(path, 'utf8'));
  }
  return found;
}

