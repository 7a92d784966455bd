import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServerCommands } from '../../src/connection/start-server-hint';

describe('a refused connection suggests only what starts a server where it runs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'start-server-hint-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const project = (manifest: unknown, ...sub: string[]): string => {
    writeFileSync(join(dir, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    const at = join(dir, ...sub);
    mkdirSync(at, { recursive: true });
    return at;
  };

  test('a project made by init: its `npm run dev`, from any folder inside it', () => {
    const scripts = { dev: 'durable-agent dev --module ./agents.ts --client ./client.ts', start: 'node server.js', test: 'node --test' };
    expect(startServerCommands(project({ name: 'support', scripts }, 'src', 'deep'))).toEqual(['npm run dev', 'temporal server start-dev']);
  });

  test('a project of its own, with scripts that start no Temporal server (its `npm start`, `npm run dev` do something else)', () => {
    const scripts = { start: 'node scripts/start.cjs', dev: 'vite', worker: 'durable-agent worker --module ./agents.ts' };
    expect(startServerCommands(project({ name: 'shop', scripts }))).toEqual(['temporal server start-dev']);
  });

  test('no package.json, or one that is not JSON: the Temporal CLI alone', () => {
    expect(startServerCommands(project('{ not json'))).toEqual(['temporal server start-dev']);
  });

  test("this package's repository: `npm start`", () => {
    expect(startServerCommands(resolve(__dirname, '..', '..'))).toEqual(['npm start', 'temporal server start-dev']);
  });
});
